"""Querysets and updates turned into SQL once per database connection, then run with new
arguments.

Django compiles a queryset's SQL afresh each time it runs.  For the few reads every move and
every socket's snapshot makes (a game with its table, a table's seats with their users) the
compiling cost more than the database did: about a millisecond a move, out of some thirteen.
A :class:`Prepared` query is made by a function of its arguments; the first run on a
connection compiles it with stand-in arguments and notes where each lands in the SQL's
parameters; later runs put the real arguments there, execute the same SQL and build the
objects as the queryset would (the same converters, the same ``select_related`` objects).

A :class:`PreparedUpdate` and a :class:`PreparedInsert` do the same for the update of its
game's row and the insert of its log row that every move makes.

Only arguments that reach the SQL as they are (a key, or a 32-bit number compared) can be
prepared: a stand-in that does not come out as exactly one parameter is refused when the
query is first compiled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

# Stand-ins for the arguments while compiling: numbers no key or count here reaches, inside
# a 32-bit integer field's range (Django turns a lookup outside its field's range into no SQL).
_STAND_IN = 2_147_480_000


@dataclass(frozen=True)
class _Compiled:
    sql: str
    # For each parameter: the index of the argument it takes, or None for a constant.
    slots: tuple[int | None, ...]
    constants: tuple[Any, ...]
    compiler: Any
    locks: bool
    model: type[Model]
    start: int
    end: int
    init_list: tuple[str, ...]
    related: tuple[Any, ...]


class Prepared(Generic[M]):
    """``make(*arguments)`` as a list of objects, its SQL compiled once per connection."""

    def __init__(
        self, make: Callable[..., QuerySet[M]], arity: int, using: str = DEFAULT_DB_ALIAS
    ) -> None:
        self.make = make
        self.arity = arity
        self.using = using

    def __call__(self, *arguments: Any) -> list[M]:
        if len(arguments) != self.arity:
            raise TypeError(f"expected {self.arity} arguments, got {len(arguments)}")
        connection = connections[self.using]
        kept: dict[Prepared[Any], _Compiled] = connection.__dict__.setdefault(
            "_prepared_queries", {}
        )
        compiled = kept.get(self)
        if compiled is None:
            compiled = kept[self] = self._compile()
        if compiled.locks and not connection.in_atomic_block:
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = tuple(
            arguments[slot] if slot is not None else constant
            for slot, constant in zip(compiled.slots, compiled.constants, strict=True)
        )
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        built = compiled.compiler.results_iter([rows])
        return [self._built(compiled, self.using, row) for row in built]

    def _compile(self) -> _Compiled:
        stand_ins = [_STAND_IN + n for n in range(self.arity)]
        queryset = self.make(*stand_ins)
        if queryset.db != self.using:
            raise ValueError(f"the query reads {queryset.db}, not {self.using}")
        db = self.using
        compiler = queryset.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        slots = tuple(stand_ins.index(p) if p in stand_ins else None for p in params)
        found = sorted(slot for slot in slots if slot is not None)
        if found != list(range(self.arity)):
            raise ValueError("each argument must come out as exactly one of the SQL's parameters")
        klass_info = compiler.klass_info
        select = compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            slots=slots,
            constants=tuple(
                None if slot is not None else p for slot, p in zip(slots, params, strict=True)
            ),
            compiler=compiler,
            locks=bool(queryset.query.select_for_update),
            model=klass_info["model"],
            start=start,
            end=end,
            init_list=tuple(f[0].target.attname for f in select[start:end]),
            related=tuple(get_related_populators(klass_info, select, db)),
        )

    @staticmethod
    def _built(compiled: _Compiled, db: str, row: Sequence[Any]) -> Any:
        obj = compiled.model.from_db(db, compiled.init_list, row[compiled.start : compiled.end])
        for populator in compiled.related:
            populator.populate(row, obj)
        return obj


class PreparedUpdate:
    """``model.objects.filter(<where>=...).update(<fields>=...)`` with its SQL made once per
    connection: the same columns set on the rows matching the same exact fields, each value
    made ready for the database as the ORM's update makes it (``get_db_prep_save``; None is
    NULL).  Only plain values: an expression or a model object is refused."""

    def __init__(
        self,
        model: type[Model],
        fields: Sequence[str],
        where: Sequence[str],
        using: str = DEFAULT_DB_ALIAS,
    ) -> None:
        self.model = model
        self.fields = tuple(_column(model, name) for name in fields)
        self.where = tuple(_column(model, name) for name in where)
        self.names = frozenset(fields)
        self.using = using

    def __call__(self, values: Mapping[str, Any], *where: Any) -> int:
        """Set ``values`` (every field named, no other) on the rows whose ``where`` fields
        equal ``where``; how many rows changed."""
        if values.keys() != self.names or len(where) != len(self.where):
            raise ValueError(
                f"expected the fields {sorted(self.names)} and {len(self.where)} values to "
                "find the rows by"
            )
        connection = connections[self.using]
        kept: dict[PreparedUpdate, str] = connection.__dict__.setdefault("_prepared_updates", {})
        sql = kept.get(self)
        if sql is None:
            sql = kept[self] = self._sql(connection)
        params = []
        for field in self.fields:
            value = values[field.name]
            if hasattr(value, "resolve_expression") or hasattr(value, "prepare_database_save"):
                raise TypeError(f"{field.name}: only plain values, not {type(value).__name__}")
            params.append(field.get_db_prep_save(value, connection=connection))
        for field, value in zip(self.where, where, strict=True):
            params.append(field.get_db_prep_value(value, connection, prepared=False))
        with transaction.mark_for_rollback_on_error(self.using), connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount

    def _sql(self, connection: Any) -> str:
        qn = connection.ops.quote_name
        columns = ", ".join(f"{qn(f.column)} = %s" for f in self.fields)
        match = " AND ".join(f"{qn(f.column)} = %s" for f in self.where)
        return f"UPDATE {qn(self.model._meta.db_table)} SET {columns} WHERE {match}"


def _column(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.concrete or field.many_to_many:
        raise ValueError(f"{name} is not a column of {model._meta.label}")
    return field


class PreparedInsert(Generic[M]):
    """``model.objects.create(**values)`` with its SQL made once per connection: every
    column but the automatic key, each value made ready as the ORM's save makes it
    (``pre_save``, then ``get_db_prep_save``), the new key read back.  It sends no
    ``pre_save`` or ``post_save`` signal: only for a model nothing listens to (the tests say
    which)."""

    def __init__(self, model: type[M], using: str = DEFAULT_DB_ALIAS) -> None:
        meta = model._meta
        if meta.auto_field is None or meta.auto_field is not meta.pk:
            raise ValueError(f"{meta.label} has no automatic key")
        self.model = model
        self.key = meta.pk
        self.fields = tuple(f for f in meta.local_concrete_fields if f is not meta.pk)
        self.using = using

    def __call__(self, **values: Any) -> M:
        obj = self.model(**values)
        connection = connections[self.using]
        kept: dict[PreparedInsert[Any], tuple[str, Any]] = connection.__dict__.setdefault(
            "_prepared_inserts", {}
        )
        made = kept.get(self)
        if made is None:
            made = kept[self] = self._sql(connection)
        sql, returning = made
        params = [
            f.get_db_prep_save(f.pre_save(obj, True), connection=connection) for f in self.fields
        ]
        with transaction.mark_for_rollback_on_error(self.using), connection.cursor() as cursor:
            cursor.execute(sql, [*params, *(returning or ())])
            if returning is not None:
                key = connection.ops.fetch_returned_insert_columns(cursor, returning)[0]
            else:
                key = connection.ops.last_insert_id(
                    cursor, self.model._meta.db_table, self.key.column
                )
        obj.pk = key
        obj._state.adding = False
        obj._state.db = self.using
        return obj

    def _sql(self, connection: Any) -> tuple[str, Any]:
        qn = connection.ops.quote_name
        columns = ", ".join(qn(f.column) for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        sql = f"INSERT INTO {qn(self.model._meta.db_table)} ({columns}) VALUES ({marks})"
        if not connection.features.can_return_columns_from_insert:
            return sql, None
        returning, params = connection.ops.return_insert_columns([self.key])
        return f"{sql} {returning}", params
