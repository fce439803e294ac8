"""Everything that changes a tournament, for the admin, the players' pages and the tasks alike.

Each function runs in one transaction holding the tournament's row, and every change an
organiser makes writes an ``AuditEntry`` (who, what, why) in it.  Tables are made and seated
through ``games.tables.lifecycle``, so they are ordinary tables: in the players' "My games", with
clocks, bots and notifications.  Results arrive from the tables (``record_table_result``, a
``games.signals.game_finished`` receiver) or from the organiser (adjudication, override).
After commit the tournament's page sockets are told (``tournaments.live``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bot_api.models import tournament_admits_bots
from games.models import Game, Seat, Table
from games.tables import lifecycle
from notifications import notices
from notifications.kinds import Kind
from tournaments import live, pairing, results
from tournaments.models import AuditEntry, Match, Registration, Round, Tournament
from tournaments.standings import refresh_standings

log = logging.getLogger(__name__)

BOT = "bot"
FORFEIT = "forfeit"
RUNNING_SEAT_CHOICES = (BOT, FORFEIT)


class TournamentError(ValueError):
    """Something that cannot be done now, said for the person who tried."""


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _lock_tables_first(table_ids: Sequence[int]) -> None:
    """Lock the tables (each with its game being played) before the tournament's row.

    A finishing move holds its game and table (``games.play.services.play``) when its receiver
    (``record_table_result``) asks for the tournament; an organiser's change that reaches
    a table (withdrawal, adjudication, override, a bot in a seat) must take the table side
    first too, or each could hold what the other waits for (PostgreSQL then kills one as a
    deadlock).  Tables in id order, the game with its table in one statement as ``play``
    does, so two organisers' changes also meet in the same order."""
    for table_id in sorted(set(table_ids)):
        game = (
            Game.objects.select_for_update()
            .select_related("table")
            .filter(table_id=table_id, status=Game.Status.PLAYING)
            .order_by("-number")
            .first()
        )
        if game is None:
            Table.objects.select_for_update().filter(pk=table_id).first()


def _playing_tables(matches: Any) -> list[int]:
    return [
        t
        for t in matches.filter(status=Match.Status.PLAYING).values_list("table_id", flat=True)
        if t
    ]


def _name(user_id: int | None) -> str:
    if user_id is None:
        return "?"
    user = get_user_model().objects.filter(pk=user_id).first()
    return user.public_name if user else f"#{user_id}"


def audit(tournament: Tournament, actor: Any, kind: str, what: str, reason: str = "") -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=actor if getattr(actor, "pk", None) else None,
        kind=kind,
        what=what,
        reason=reason,
    )


def _set_status(tournament: Tournament, status: str) -> None:
    tournament.status = status
    tournament.save(update_fields=["status", "updated_at"])


# --- Registration ---------------------------------------------------------------------------


def _check_window(tournament: Tournament) -> None:
    now = timezone.now()
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(_("Registration is not open."))
    if tournament.registration_opens_at and now < tournament.registration_opens_at:
        raise TournamentError(_("Registration has not opened yet."))
    if tournament.registration_closes_at and now >= tournament.registration_closes_at:
        raise TournamentError(_("Registration has closed."))


def _active_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=Registration.Status.ACTIVE).count()


def _enrol(tournament: Tournament, user: Any) -> Registration:
    if user.is_bot and not tournament_admits_bots(tournament):
        raise TournamentError(
            _("%(name)s is a bot account, and this tournament admits none.")
            % {"name": user.public_name}
        )
    registration, created = Registration.objects.get_or_create(tournament=tournament, user=user)
    if not created and registration.status == Registration.Status.ACTIVE:
        raise TournamentError(_("%(name)s is registered already.") % {"name": user.public_name})
    limit = tournament.max_players
    if limit is not None and _active_count(tournament) - created >= limit:
        raise TournamentError(_("The tournament is full."))
    if not created:
        registration.status = Registration.Status.ACTIVE
        registration.withdrawn_at = None
        registration.save(update_fields=["status", "withdrawn_at"])
    return registration


def register(tournament: Tournament, user: Any) -> Registration:
    """A player signs up while registration is open."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_window(tournament)
        registration = _enrol(tournament, user)
        live.changed_after_commit(tournament.pk)
    return registration


def withdraw_self(tournament: Tournament, user: Any) -> None:
    """A player takes their name back while registration is open."""
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(_("Registration is closed: ask the organiser to withdraw you."))
        updated = Registration.objects.filter(
            tournament=tournament, user=user, status=Registration.Status.ACTIVE
        ).update(status=Registration.Status.WITHDRAWN, withdrawn_at=timezone.now())
        if not updated:
            raise TournamentError(_("You are not registered."))
        live.changed_after_commit(tournament.pk)


def add_player(tournament: Tournament, user: Any, by: Any, reason: str = "") -> Registration:
    """The organiser registers a player, at any time before the tournament ends (the player
    is paired from the next round on)."""
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("The tournament is over."))
        registration = _enrol(tournament, user)
        audit(
            tournament,
            by,
            AuditEntry.Kind.REGISTRATION,
            _("Registered %(name)s.") % {"name": user.public_name},
            reason,
        )
        refresh_standings(tournament)
        live.changed_after_commit(tournament.pk)
    return registration


def remove_player(tournament: Tournament, user: Any, by: Any, reason: str = "") -> None:
    """The organiser takes a player off the list who has not played (a player who has is
    withdrawn instead, so their results stand)."""
    with transaction.atomic():
        tournament = _locked(tournament)
        played = any(
            user.pk in players
            for players in Match.objects.filter(tournament=tournament).values_list(
                "players", flat=True
            )
        ) or any(user.pk in byes for byes in tournament.round_set.values_list("byes", flat=True))
        if played:
            raise TournamentError(
                _("%(name)s has played: withdraw them instead.") % {"name": user.public_name}
            )
        Registration.objects.filter(tournament=tournament, user=user).delete()
        audit(
            tournament,
            by,
            AuditEntry.Kind.REGISTRATION,
            _("Removed %(name)s.") % {"name": user.public_name},
            reason,
        )
        refresh_standings(tournament)
        live.changed_after_commit(tournament.pk)


def withdraw_player(
    tournament: Tournament, user: Any, by: Any, *, running: str = BOT, reason: str = ""
) -> None:
    """The organiser withdraws a player at any time.  Their matches not yet played are
    dropped (a round waiting for confirmation is paired again); a match being played goes
    on with a bot in their seat (``running="bot"``) or ends now with them last
    (``running="forfeit"``)."""
    if running not in RUNNING_SEAT_CHOICES:
        raise TournamentError(_("Choose a bot or a forfeit for the seat being played."))
    with transaction.atomic():
        _lock_tables_first(
            [
                table_id
                for table_id, seated in Match.objects.filter(
                    tournament=tournament, status=Match.Status.PLAYING
                ).values_list("table_id", "players")
                if table_id and user.pk in seated
            ]
        )
        tournament = _locked(tournament)
        registration = Registration.objects.filter(tournament=tournament, user=user).first()
        if registration is None or registration.status != Registration.Status.ACTIVE:
            raise TournamentError(_("%(name)s is not playing.") % {"name": user.public_name})
        registration.status = Registration.Status.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["status", "withdrawn_at"])
        notes = []
        for proposed in tournament.round_set.filter(status=Round.Status.PROPOSED):
            if user.pk in _round_players(proposed):
                notes.append(_("the pairing of round %(n)d was dropped") % {"n": proposed.number})
                proposed.delete()
        for match in Match.objects.filter(tournament=tournament, status=Match.Status.PLAYING):
            if user.pk not in match.players:
                continue
            if running == BOT:
                lifecycle.hand_seat_to_bot(match.seated_table, match.players.index(user.pk))
                notes.append(_("a bot plays the seat at %(match)s") % {"match": match})
            else:
                _finish(match, results.forfeit_result(match, user.pk), adjudicated=True)
                notes.append(_("%(match)s ends with a forfeit") % {"match": match})
        what = _("Withdrew %(name)s") % {"name": user.public_name}
        audit(
            tournament,
            by,
            AuditEntry.Kind.WITHDRAWAL,
            "; ".join([what, *notes]) + ".",
            reason,
        )
        refresh_standings(tournament)
        _finish_rounds(tournament)
        live.changed_after_commit(tournament.pk)


def _round_players(round_: Round) -> set[int]:
    players = set(round_.byes)
    for match in round_.matches.all():
        players.update(match.players)
    return players


# --- Status ---------------------------------------------------------------------------------


def open_registration(tournament: Tournament, by: Any) -> None:
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.CLOSED):
            raise TournamentError(_("Registration opens only before the tournament starts."))
        _set_status(tournament, Tournament.Status.REGISTRATION)
        audit(tournament, by, AuditEntry.Kind.STATUS, _("Opened registration."))
        live.changed_after_commit(tournament.pk)


def close_registration(tournament: Tournament, by: Any) -> None:
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(_("Registration is not open."))
        _set_status(tournament, Tournament.Status.CLOSED)
        audit(tournament, by, AuditEntry.Kind.STATUS, _("Closed registration."))
        live.changed_after_commit(tournament.pk)


def cancel(tournament: Tournament, by: Any, reason: str = "") -> None:
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("The tournament is over."))
        _set_status(tournament, Tournament.Status.CANCELLED)
        audit(tournament, by, AuditEntry.Kind.STATUS, _("Cancelled the tournament."), reason)
        live.changed_after_commit(tournament.pk)


# --- Rounds ---------------------------------------------------------------------------------


def _fix_field(tournament: Tournament) -> None:
    """At the first round: the field, seeded by rating, from which schedules are built."""
    players = pairing.active_players(tournament)
    if len(players) < max(2, tournament.min_players):
        raise TournamentError(
            _("The tournament needs at least %(n)d players; %(have)d are registered.")
            % {"n": max(2, tournament.min_players), "have": len(players)}
        )
    tournament.seeding = pairing.seeded(tournament, players)
    tournament.schedule = []
    tournament.rounds = pairing.scheduled_rounds(tournament)  # keeps a round robin's schedule
    tournament.save(update_fields=["seeding", "schedule", "rounds", "updated_at"])


def propose_round(tournament: Tournament, by: Any) -> Round:
    """Pair the next round and keep it for the organiser to confirm (nothing is seated
    yet).  A pairing already waiting is returned as it is."""
    with transaction.atomic():
        tournament = _locked(tournament)
        waiting = tournament.round_set.filter(status=Round.Status.PROPOSED).first()
        if waiting is not None:
            return waiting
        if tournament.status not in (
            Tournament.Status.REGISTRATION,
            Tournament.Status.CLOSED,
            Tournament.Status.RUNNING,
        ):
            raise TournamentError(_("Rounds are paired once the tournament has players."))
        if tournament.round_set.filter(status=Round.Status.PLAYING).exists():
            raise TournamentError(_("The current round is still being played."))
        number = tournament.current_round + 1
        if number == 1:
            _fix_field(tournament)
        if number > pairing.round_count(tournament):
            raise TournamentError(_("Every round has been played."))
        if len(pairing.active_players(tournament)) < 2:
            raise TournamentError(_("Fewer than two players are left."))
        planned = pairing.next_pairing(tournament, number)
        round_ = Round.objects.create(tournament=tournament, number=number)
        byes = list(planned.byes)
        for index, players in enumerate(planned.tables):
            walkover = len(players) < 2
            if walkover:
                byes.extend(players)
            Match.objects.create(
                tournament=tournament,
                round=round_,
                index=index,
                players=list(players),
                status=Match.Status.DROPPED if walkover else Match.Status.PROPOSED,
            )
        round_.byes = byes
        round_.save(update_fields=["byes"])
        live.changed_after_commit(tournament.pk)
    return round_


def pairing_text(round_: Round) -> str:
    """The round's tables in one line, for the audit log."""
    parts = []
    for match in round_.matches.exclude(status=Match.Status.DROPPED).order_by("index"):
        names = ", ".join(_name(p) for p in match.players)
        parts.append(_("table %(n)d: %(names)s") % {"n": match.index + 1, "names": names})
    if round_.byes:
        names = ", ".join(_name(p) for p in round_.byes)
        parts.append(_("sitting out: %(names)s") % {"names": names})
    return "; ".join(parts)


def confirm_round(round_: Round, by: Any) -> Round:
    """Seat the confirmed pairing: a table per match, started at once, so it is in each
    player's "My games" and whoever is to play first is told as after any deal."""
    with transaction.atomic():
        tournament = _locked(round_.tournament)
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.status != Round.Status.PROPOSED:
            raise TournamentError(_("This round has been confirmed already."))
        users = get_user_model().objects.in_bulk(
            [p for m in round_.matches.all() for p in m.players]
        )
        now = timezone.now()
        told = []
        for match in round_.matches.filter(status=Match.Status.PROPOSED).order_by("index"):
            table = _seat(tournament, [users[p] for p in match.players])
            match.table = table
            match.status = Match.Status.PLAYING
            match.save(update_fields=["table", "status"])
            told += _tell_round_started(
                tournament, round_, table, [users[p] for p in match.players]
            )
        round_.status = Round.Status.PLAYING
        round_.started_at = now
        if tournament.pace == Table.Pace.SLOW and tournament.round_days:
            round_.deadline = now + timedelta(days=tournament.round_days)
        round_.save(update_fields=["status", "started_at", "deadline"])
        tournament.current_round = round_.number
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["current_round", "status", "updated_at"])
        audit(
            tournament,
            by,
            AuditEntry.Kind.PAIRING,
            _("Started round %(n)d: %(pairing)s.")
            % {"n": round_.number, "pairing": pairing_text(round_)},
        )
        refresh_standings(tournament)
        _finish_rounds(tournament)
        live.changed_after_commit(tournament.pk)
        transaction.on_commit(lambda: _queue_round_emails(told))
    return round_


def _tell_round_started(
    tournament: Tournament, round_: Round, table: Table, players: Sequence[Any]
) -> list[int]:
    """A notice per player of the new table ("round N started: your table"), shown on
    their pages while the game is played; the ids of those created, for the emails."""
    game = table.games.order_by("number").first()
    if game is None:
        raise ValueError(f"table {table.pk} was started without a game")
    created = []
    for position, user in enumerate(players):
        notice = notices.record(
            kind=Kind.ROUND,
            user=user,
            game=game,
            seat=position,
            key=f"round-{round_.number}",
            params={
                "round": round_.number,
                "tournament": tournament.name,
                "tournament_id": tournament.pk,
            },
        )
        if notice is not None:
            created.append(notice.pk)
    return created


def _queue_round_emails(notice_ids: Sequence[int]) -> None:
    from tournaments.tasks import send_round_started  # Celery only where it is needed

    for notice_id in notice_ids:
        try:
            send_round_started.delay(notice_id)
        except Exception:  # a broker that is down must not undo the round; the page tells
            log.exception("could not queue the round email of notice %s", notice_id)


def discard_proposal(round_: Round, by: Any) -> None:
    with transaction.atomic():
        _locked(round_.tournament)
        deleted, _rows = Round.objects.filter(pk=round_.pk, status=Round.Status.PROPOSED).delete()
        if not deleted:
            raise TournamentError(_("Only a pairing not yet confirmed can be dropped."))
        live.changed_after_commit(round_.tournament_id)


def _seat(tournament: Tournament, players: Sequence[Any]) -> Table:
    options = dict(tournament.options or {})
    options["series_games"] = tournament.games_per_match
    options["target_score"] = tournament.target_score
    # The first player owns the table (its pages name it by its owner); the table is
    # started here, so owning it gives them nothing to do.
    owner = players[0]
    try:
        table = lifecycle.create_arranged_table(
            owner,
            list(players),
            game_type=tournament.game_type,
            preset=tournament.preset or None,
            options=options,
            pace=tournament.pace,
            move_seconds=tournament.move_seconds,
            vacation_allowed=tournament.vacation_allowed,
            rated=tournament.rated,
        )
    except lifecycle.TableError as error:
        raise TournamentError(str(error)) from None
    lifecycle.start_table(table, owner)
    return table


def _finish(match: Match, result: results.Result, **flags: bool) -> None:
    """Record ``result``; a result decided by the organiser (adjudication, forfeit,
    override) while the table still plays ends the table too, so nobody plays on a match
    that is over (``games.tables.lifecycle.stop_table``: the pages redraw, moves are refused)."""
    decided_here = flags.get("adjudicated") or flags.get("overridden")
    if decided_here and match.status == Match.Status.PLAYING and match.table is not None:
        lifecycle.stop_table(match.table)
    match.places = list(result.places)
    match.scores = list(result.scores)
    match.status = Match.Status.FINISHED
    match.proposed_result = None
    match.finished_at = timezone.now()
    for name, value in flags.items():
        setattr(match, name, value)
    match.save()


def _finish_rounds(tournament: Tournament) -> None:
    """Close every round whose matches are all decided; the last one ends the tournament."""
    open_matches = (Match.Status.PROPOSED, Match.Status.PLAYING)
    for round_ in tournament.round_set.filter(status=Round.Status.PLAYING):
        if round_.matches.filter(status__in=open_matches).exists():
            continue
        round_.status = Round.Status.FINISHED
        round_.finished_at = timezone.now()
        round_.needs_adjudication = False
        round_.save(update_fields=["status", "finished_at", "needs_adjudication"])
        if round_.number >= pairing.round_count(tournament):
            _set_status(tournament, Tournament.Status.FINISHED)


# --- Results --------------------------------------------------------------------------------


def record_table_result(sender: Any, game: Game, seats: dict[int, Seat], **kwargs: Any) -> None:
    """``games.signals.game_finished`` receiver: a tournament table whose series is over
    gives its match's result.  It runs inside the move's transaction; a failure here is
    logged and must not refuse the move, so it runs in a savepoint (the organiser's
    "recompute standings" collects a result missed this way)."""
    table = game.table
    if table.status != Table.Status.FINISHED:
        return  # a game of the series; the pages hear of it as of every move (live.py)
    try:
        with transaction.atomic():
            match = Match.objects.filter(table_id=table.pk, status=Match.Status.PLAYING).first()
            if match is None:
                return
            tournament = _locked(match.tournament)
            _finish(match, results.finished_result(table))
            refresh_standings(tournament)
            _finish_rounds(tournament)
            live.changed_after_commit(tournament.pk)
    except Exception:
        log.exception("could not record the result of table %s", table.pk)


def _collect_finished_tables(tournament: Tournament) -> int:
    """Results of finished tables not yet recorded (a receiver that failed)."""
    found = 0
    for match in Match.objects.filter(
        tournament=tournament, status=Match.Status.PLAYING, table__status=Table.Status.FINISHED
    ).select_related("table"):
        _finish(match, results.finished_result(match.seated_table))
        found += 1
    return found


def recompute_standings(tournament: Tournament, by: Any) -> list[dict[str, Any]]:
    with transaction.atomic():
        tournament = _locked(tournament)
        collected = _collect_finished_tables(tournament)
        rows = refresh_standings(tournament)
        _finish_rounds(tournament)
        what = _("Recomputed the standings.")
        if collected:
            what += " " + _("%(n)d finished table(s) recorded.") % {"n": collected}
        audit(tournament, by, AuditEntry.Kind.STANDINGS, what)
        live.changed_after_commit(tournament.pk)
    return rows


def propose_adjudication(round_: Round, rule: str, by: Any) -> list[Match]:
    """Score every unfinished match of the round by ``rule`` and keep the results for the
    organiser to confirm; nothing counts yet."""
    if rule not in results.rules_for(round_.tournament.game_type):
        raise TournamentError(_("This game offers no such rule."))
    with transaction.atomic():
        _locked(round_.tournament)
        proposed = []
        for match in round_.matches.filter(status=Match.Status.PLAYING).select_related("table"):
            result = results.adjudicated_result(match, rule)
            match.proposed_result = {
                "rule": rule,
                "places": list(result.places),
                "scores": list(result.scores),
            }
            match.save(update_fields=["proposed_result"])
            proposed.append(match)
    return proposed


def confirm_adjudication(round_: Round, by: Any, reason: str = "") -> list[Match]:
    """Count the proposed results: each match adjudicated, audited one by one."""
    with transaction.atomic():
        _lock_tables_first(_playing_tables(round_.matches.filter(proposed_result__isnull=False)))
        tournament = _locked(round_.tournament)
        decided = []
        for match in round_.matches.filter(
            status=Match.Status.PLAYING, proposed_result__isnull=False
        ).order_by("index"):
            proposal = match.proposed_result
            assert proposal is not None  # the query asked for one
            result = results.Result(tuple(proposal["places"]), tuple(proposal["scores"]))
            _finish(match, result, adjudicated=True)
            audit(
                tournament,
                by,
                AuditEntry.Kind.ADJUDICATION,
                _("Adjudicated %(match)s by the %(rule)s rule: %(result)s.")
                % {"match": match, "rule": proposal["rule"], "result": _result_text(match)},
                reason,
            )
            decided.append(match)
        if not decided:
            raise TournamentError(_("No adjudication is waiting for confirmation."))
        refresh_standings(tournament)
        _finish_rounds(tournament)
        live.changed_after_commit(tournament.pk)
    return decided


def _result_text(match: Match) -> str:
    if match.places is None or match.scores is None:  # a result sets both
        return _("no result")
    return ", ".join(
        _("%(name)s place %(place)d (%(score)g)")
        % {"name": _name(p), "place": place, "score": score}
        for p, place, score in zip(match.players, match.places, match.scores, strict=True)
    )


def override_result(
    match: Match,
    places: Sequence[int],
    scores: Sequence[float],
    by: Any,
    reason: str,
) -> Match:
    """The organiser sets a match's result (per seat: place and score), with a reason."""
    if not reason.strip():
        raise TournamentError(_("Say why the result is changed."))
    if len(places) != len(match.players) or len(scores) != len(match.players):
        raise TournamentError(_("Give a place and a score for every player of the match."))
    if any(not 1 <= p <= len(match.players) for p in places):
        raise TournamentError(_("Places run from 1 to the number of players."))
    with transaction.atomic():
        _lock_tables_first(_playing_tables(Match.objects.filter(pk=match.pk)))
        tournament = _locked(match.tournament)
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status == Match.Status.DROPPED:
            raise TournamentError(_("A dropped match has no result."))
        before = _result_text(match)
        _finish(match, results.Result(tuple(places), tuple(scores)), overridden=True)
        audit(
            tournament,
            by,
            AuditEntry.Kind.OVERRIDE,
            _("Changed the result of %(match)s from %(before)s to %(after)s.")
            % {"match": match, "before": before, "after": _result_text(match)},
            reason,
        )
        refresh_standings(tournament)
        _finish_rounds(tournament)
        live.changed_after_commit(tournament.pk)
    return match


def replace_by_bot(match: Match, user: Any, by: Any, reason: str = "") -> None:
    """A bot plays ``user``'s seat for the rest of the match; the result stays theirs."""
    with transaction.atomic():
        _lock_tables_first(_playing_tables(Match.objects.filter(pk=match.pk)))
        tournament = _locked(match.tournament)
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.Status.PLAYING or user.pk not in match.players:
            raise TournamentError(_("Only a seat of a match being played can be handed over."))
        lifecycle.hand_seat_to_bot(match.seated_table, match.players.index(user.pk))
        audit(
            tournament,
            by,
            AuditEntry.Kind.REPLACEMENT,
            _("A bot plays %(name)s's seat at %(match)s.")
            % {"name": user.public_name, "match": match},
            reason,
        )
        live.changed_after_commit(tournament.pk)
