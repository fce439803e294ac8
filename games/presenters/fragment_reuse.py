"""Parts of a page rendered once for the data they show, and reused while that data repeats.

After a move every seat's page is rendered again, yet most of each is what that seat (or
another seat, the same version) was sent already: the melds on the table, the discard row,
a rack that did not change, last version's log entries.  ``{% reuse %}...{% endreuse %}``
(``games.templatetags.reuse``) keeps its body's output in a per-process store, keyed by the
values of every context name the body reads, with the language, time zone and escaping and
localisation switches; the same values give the same bytes, so they are served from the store.

Which names a body reads is found from its parsed nodes, once per template; a body whose
output could depend on anything else (the clock, a tag that reads the whole context, a node
this module does not know) is refused with a TemplateSyntaxError when first rendered.  A render
whose values are not plain data (a model, a request) is simply rendered.  Hidden information
is safe by construction: another viewer is served a stored part only when every value the
part reads is equal, and then the bytes are the same ones its own render would make.

``settings.FRAGMENT_REUSE_CHECK`` (on in the tests) renders every reused part again and raises
:class:`ReuseMismatch` if the bytes differ, so the whole suite checks that the keys are whole.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.template import Context, Node, NodeList, TemplateSyntaxError
from django.template.backends.django import Template as BackendTemplate
from django.template.base import (
    FilterExpression,
    TextNode,
    Token,
    TokenType,
    Variable,
    VariableNode,
)
from django.template.base import Template as DjangoTemplate
from django.template.defaulttags import (
    AutoEscapeControlNode,
    CommentNode,
    CsrfTokenNode,
    FilterNode,
    FirstOfNode,
    ForNode,
    IfNode,
    LoadNode,
    SpacelessNode,
    TemplateTagNode,
    URLNode,
    WidthRatioNode,
    WithNode,
)
from django.template.library import InclusionNode, SimpleNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.template.smartif import TokenBase
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.templatetags.l10n import LocalizeNode
from django.templatetags.static import StaticNode
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.safestring import SafeString
from template_partials.templatetags.partials import DefinePartialNode, RenderPartialNode

# Nodes whose output is a function of the names found in their attributes.
KNOWN_NODES: tuple[type[Node], ...] = (
    AutoEscapeControlNode,
    BlockTranslateNode,
    CommentNode,
    DefinePartialNode,
    FilterNode,
    FirstOfNode,
    ForNode,
    IfNode,
    LoadNode,
    LocalizeNode,
    SpacelessNode,
    StaticNode,
    TemplateTagNode,
    TextNode,
    TranslateNode,
    URLNode,
    VariableNode,
    WidthRatioNode,
    WithNode,
)
# Filters whose output depends on the moment of rendering.
CLOCK_FILTERS = frozenset({"timesince_filter", "timeuntil_filter", "naturaltime", "naturalday"})
# Attributes every node has that are not what it renders.
SKIPPED_ATTRIBUTES = frozenset({"token", "origin"})

KEY_CHARACTERS = 100  # what a part's key is counted as, so that empty parts cannot pile up


class ReuseMismatch(AssertionError):
    """A reused part differs from a fresh render: its key misses something the part reads."""


# Simple tags whose output depends only on their arguments and the language.
PURE_TAGS: set[Any] = set()


def pure(function: Any) -> Any:
    """Marks a simple tag's function as one a reused part may call."""
    PURE_TAGS.add(function)
    return function


def names_read(nodelist: NodeList, where: str) -> tuple[str, ...]:
    """Every context name ``nodelist`` reads, sorted; TemplateSyntaxError naming ``where`` when
    its output could depend on something else."""
    names: set[str] = set()
    _walk(nodelist, names, set(), where)
    return tuple(sorted(names))


def compiled_template(name: str) -> DjangoTemplate:
    """Template ``name`` as Django's engine compiled it (its nodes), not the backend's wrapper
    that ``get_template`` types."""
    wrapper = get_template(name)
    if not isinstance(wrapper, BackendTemplate):
        raise TypeError(f"{name} is not a Django template: {type(wrapper).__name__}")
    return wrapper.template


def _walk(item: Any, names: set[str], seen: set[int], where: str) -> None:
    if id(item) in seen:
        return
    seen.add(id(item))
    if isinstance(item, list | tuple):
        for part in item:
            _walk(part, names, seen, where)
    elif isinstance(item, dict):
        for part in item.values():  # the keys are names the tag sets, not reads
            _walk(part, names, seen, where)
    elif isinstance(item, Variable):
        if item.lookups:
            names.add(item.lookups[0])
    elif isinstance(item, FilterExpression):
        _walk(item.var, names, seen, where)
        for function, arguments in item.filters:
            if getattr(function, "__name__", "") in CLOCK_FILTERS:
                raise _refused(where, f"the filter {function.__name__} depends on the time")
            for is_lookup, argument in arguments:
                if is_lookup:
                    _walk(argument, names, seen, where)
    elif isinstance(item, Token):
        if item.token_type == TokenType.VAR:  # blocktranslate's placeholders
            names.add(item.contents.split(".")[0].strip())
    elif isinstance(item, TokenBase):  # an {% if %} condition
        _walk_attributes(item, names, seen, where)
    elif isinstance(item, Node):
        _walk_node(item, names, seen, where)


def _walk_node(node: Node, names: set[str], seen: set[int], where: str) -> None:
    if isinstance(node, CsrfTokenNode):
        names.add("csrf_token")
    elif isinstance(node, SimpleNode | InclusionNode):
        if node.takes_context or node.func not in PURE_TAGS:
            raise _refused(where, f"the tag {node.func.__name__} is not marked pure")
        _walk((node.args, node.kwargs), names, seen, where)
    elif isinstance(node, IncludeNode):
        name = node.template.var
        if not isinstance(name, str) or node.template.filters:
            raise _refused(where, "an include must name its template")
        _walk(node.extra_context, names, seen, where)
        _walk(compiled_template(name).nodelist, names, seen, where)
    elif isinstance(node, RenderPartialNode):
        _walk(node.partial_mapping[node.partial_name].nodelist, names, seen, where)
    elif isinstance(node, ReuseNode):
        _walk(node.nodelist, names, seen, where)
    elif isinstance(node, KNOWN_NODES):
        _walk_attributes(node, names, seen, where)
    else:
        raise _refused(where, f"it cannot tell what {type(node).__name__} reads")


def _walk_attributes(item: Any, names: set[str], seen: set[int], where: str) -> None:
    for attribute, value in vars(item).items():
        if attribute not in SKIPPED_ATTRIBUTES:
            _walk(value, names, seen, where)


def _refused(where: str, why: str) -> TemplateSyntaxError:
    return TemplateSyntaxError(f"{{% reuse %}} at {where} cannot be reused: {why}.")


class NotPlain(Exception):
    """A value the store cannot key by: the part is rendered afresh."""


MISSING = object()
_DATACLASS_FIELDS: dict[type, tuple[str, ...]] = {}
PLAIN = (str, int, float, bool, type(None), datetime.date, datetime.timedelta, decimal.Decimal)


# Classes whose objects never change and are made once per value by their presenter (a tile
# as drawn, per language): a page repeats the same few dozen, so each one's stand-in is kept
# with the object itself.  Holding the object keeps its id from being reused.
_IMMUTABLE: set[type] = set()
_KEPT_STAND_INS: dict[int, tuple[Any, Any]] = {}
KEPT_STAND_INS_MAX = 20_000
_PLAIN_FIELD_TYPES = frozenset({str, int, bool, type(None)})


def immutable(cls: type) -> type:
    """Class decorator: ``cls`` is a frozen dataclass of text, numbers and flags, whose
    objects ``frozen`` may remember by identity."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} must be a frozen dataclass")
    for field in dataclasses.fields(cls):
        if field.type not in ("str", "int", "bool", "str | None", str, int, bool):
            raise TypeError(f"{cls.__name__}.{field.name} could change: {field.type}")
    _IMMUTABLE.add(cls)
    return cls


def frozen(value: Any) -> Any:
    """A hashable stand-in equal for equal plain data (lists, dicts, dataclasses of text,
    numbers, dates), with its type where types print differently."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind in _IMMUTABLE:
        kept = _KEPT_STAND_INS.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        names = _DATACLASS_FIELDS.get(kind) or _dataclass_fields(kind)
        values = [getattr(value, name) for name in names]
        stand_in = (kind, tuple([frozen(v) for v in values]))
        # Kept only when every field is plain as declared (lazy text would change language).
        if all(type(v) in _PLAIN_FIELD_TYPES for v in values):
            if len(_KEPT_STAND_INS) >= KEPT_STAND_INS_MAX:
                _KEPT_STAND_INS.clear()
            _KEPT_STAND_INS[id(value)] = (value, stand_in)
        return stand_in
    if kind is dict:
        return (dict, tuple([(k, frozen(v)) for k, v in value.items()]))
    if kind is list or kind is tuple:
        return (kind, tuple([frozen(v) for v in value]))
    field_names = _DATACLASS_FIELDS.get(kind)
    if field_names is None and dataclasses.is_dataclass(kind):
        field_names = _dataclass_fields(kind)
    if field_names is not None:
        return (kind, tuple([frozen(getattr(value, name)) for name in field_names]))
    if kind is bool:  # True == 1, but they print differently
        return (bool, value)
    if kind is SafeString:  # prints unescaped: not the same as the equal str
        return (SafeString, str(value))
    if isinstance(value, enum.Enum):
        return (kind, value.value)
    if isinstance(value, Promise):  # lazy text (the language is in the key), maybe safe
        return frozen(str(value))
    if isinstance(value, PLAIN) or value is MISSING:
        return (kind, value)
    raise NotPlain(kind.__name__)


def _dataclass_fields(kind: type) -> tuple[str, ...]:
    names = _DATACLASS_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


class Store:
    """Rendered parts by key, least recently used dropped first beyond ``max_characters``."""

    def __init__(self, max_characters: int | None = None) -> None:
        self.max_characters = max_characters or settings.FRAGMENT_REUSE_MAX_CHARACTERS
        self._parts: OrderedDict[Any, SafeString] = OrderedDict()
        self._characters = 0
        self._lock = threading.Lock()  # renders run in several worker threads
        self.hits = self.misses = self.unkeyed = 0

    def get(self, key: Any) -> SafeString | None:
        with self._lock:
            part = self._parts.get(key)
            if part is None:
                self.misses += 1
                return None
            self.hits += 1
            self._parts.move_to_end(key)
            return part

    def put(self, key: Any, part: SafeString) -> None:
        with self._lock:
            if key in self._parts:
                return
            self._parts[key] = part
            self._characters += len(part) + KEY_CHARACTERS
            while self._characters > self.max_characters and self._parts:
                _, dropped = self._parts.popitem(last=False)
                self._characters -= len(dropped) + KEY_CHARACTERS

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self._characters = 0
            self.hits = self.misses = self.unkeyed = 0

    def __len__(self) -> int:
        return len(self._parts)


STORE = Store()
_serials = itertools.count()
_bypassed: ContextVar[bool] = ContextVar("fragment_reuse_bypassed", default=False)


@contextmanager
def bypassed() -> Iterator[None]:
    """Every part rendered afresh, the store untouched: the baseline ``bench/renders.py``
    measures beside the reuse."""
    token = _bypassed.set(True)
    try:
        yield
    finally:
        _bypassed.reset(token)


# The attribute of a template ``Context`` (copied with it into includes) where a render that
# draws many fragments in one language and time zone keeps them.
LOCALE = "fragment_locale"


def locale_now() -> tuple[str | None, str]:
    """The language and time zone in force, which every fragment's key holds."""
    return translation.get_language(), timezone.get_current_timezone_name()


class ReuseNode(Node):
    def __init__(self, nodelist: NodeList, where: str) -> None:
        self.nodelist = nodelist
        self.where = where
        # Unique for the process's life: a template parsed again (no cached loader) never
        # meets the parts of an older parse.
        self.serial = next(_serials)
        self._names: tuple[str, ...] | None = None

    def render(self, context: Context) -> SafeString:
        if _bypassed.get():
            return self.nodelist.render(context)
        if self._names is None:  # partials and includes are only all there once rendering
            self._names = names_read(self.nodelist, self.where)
        try:
            key = self._key(context, self._names)
        except NotPlain:
            STORE.unkeyed += 1
            return self.nodelist.render(context)
        part = STORE.get(key)
        if part is None:
            part = SafeString(self.nodelist.render(context))
            STORE.put(key, part)
        elif settings.FRAGMENT_REUSE_CHECK:
            fresh = self.nodelist.render(context)
            if fresh != part:
                raise ReuseMismatch(f"{{% reuse %}} at {self.where} served a stale part")
        return part

    def _key(self, context: Context, names: Iterable[str]) -> tuple[Any, ...]:
        # A render of a page's parts reads the language and time zone once for all its
        # fragments (``page_parts.render_parts``); any other render asks here, for each.
        locale = getattr(context, LOCALE, None) or locale_now()
        return (
            self.serial,
            *locale,
            context.autoescape,
            context.use_l10n,
            context.use_tz,
            tuple([frozen(context.get(name, MISSING)) for name in names]),
        )
