"""The codes of ``jaxcompat check``, each one unit as a ruff rule is: its code, its name,
what ``--explain`` says of it, and whether its findings hold a port's floor up.

Codes are stable, like ruff's. The finders (``_rules``, ``_module_findings``,
``_config_findings``, ``_array_findings``, ``_jaxcompat_calls``) name each finding by one of
these constants; ``_output`` and ``--explain`` print their texts; ``migrate`` raises its floor
above the rows a finding of a code that ``holds_floor`` fails on.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CODES", "Code"]


@dataclass(frozen=True)
class Code:
    code: str  # JCxxx
    name: str  # a few words, as ruff names its rules
    explanation: str  # what --explain prints
    #: Its findings fail on the rows they name: `migrate` puts the floor above them.
    holds_floor: bool = False
    #: A finding of it makes ``check`` exit 1. False for what describes working code (a
    #: gate both of whose branches run): a correct port must leave a CI job's check green.
    fails_check: bool = True


MISSING_NAME = Code(
    "JC001",
    "missing-name",
    "A JAX name or module the code uses does not exist on some JAX releases in the range "
    "the library claims, so the code fails there with AttributeError or ImportError. The "
    "finding lists those releases (rows of jaxcompat's test matrix) and the fix: the "
    "jaxcompat name that gives it on every release, or the floor to raise to. Modules "
    "count too, imported (from jax.lib import xla_bridge, import jax.experimental.maps, "
    "from jax.config import config) or reached by attribute (jax.lib.xla_bridge."
    "get_backend()): for a module JAX removed, the finding names what JAX's changelog "
    "gives in its place (jax.extend.backend for jax.lib.xla_bridge, the jax.config "
    "object for the jax.config module).",
    holds_floor=True,
)

DEPRECATED_NAME = Code(
    "JC002",
    "deprecated-name",
    "Reading the name emits a DeprecationWarning or FutureWarning on some releases in "
    "the range: a test suite that turns warnings into errors fails there, and the next "
    "releases remove the name.",
)

REMOVED_NAME = Code(
    "JC003",
    "removed-name",
    "The name is still listed by JAX (its deprecation table) but reading it raises "
    "AttributeError on some releases in the range: the deprecation became an error.",
    holds_floor=True,
)

KEYWORD_NOT_ACCEPTED = Code(
    "JC010",
    "keyword-not-accepted",
    "A call passes a keyword argument that the JAX callable does not accept on some "
    "releases in the range (not yet added, or removed), so the call raises TypeError there "
    "(or, for a class that names the keyword but reads it otherwise, means something "
    "else). jaxcompat gives JAX's own classes, so a newest constructor keyword is JAX's "
    "TypeError through jaxcompat too, before the first release that takes it.",
    holds_floor=True,
)

KEYWORD_DEPRECATED = Code(
    "JC011",
    "keyword-deprecated",
    "A call passes a keyword argument that JAX marks as deprecated on some releases in "
    "the range: passing it emits a DeprecationWarning, and a later release removes it.",
)

POSITIONAL_CALL = Code(
    "JC020",
    "positional-call",
    "A call passes arguments by position where the JAX callable takes fewer positional "
    "arguments on some releases (TypeError), or where a position means another "
    "parameter on some releases (a silent wrong answer). Pass them by keyword.",
    holds_floor=True,
)

MISSING_ARGUMENT = Code(
    "JC021",
    "missing-argument",
    "A call leaves out an argument that the JAX callable requires on some releases in "
    "the range (it has no default there), so the call raises TypeError there: "
    "`jax.tree_util.register_dataclass(cls)` on 0.4.27-0.4.35, which want `data_fields` "
    "and `meta_fields`. Pass it, or use the jaxcompat name that takes the newest "
    "signature.",
    holds_floor=True,
)

REPLACEABLE_GATE = Code(
    "JC030",
    "replaceable-gate",
    "A version gate (a comparison of jax.__version_info__ or jax.__version__, a "
    "hasattr(jax..., 'name') test, or try/except ImportError/AttributeError around an "
    "import) whose every branch uses one name that jaxcompat provides on every release, "
    "or with a branch whose names jaxcompat gives on every release of the declared range "
    "(the other branches, a fallback written by hand included, are then moot): the gate "
    "can become that jaxcompat name.",
)

STRING_VERSION_COMPARISON = Code(
    "JC031",
    "string-version-comparison",
    "A comparison of jax.__version__ with a string compares characters, not releases: "
    "'0.10.0' < '0.7.2' is True. The finding lists the releases on which the comparison "
    "gives the wrong answer. Compare jax.__version_info__ (or jaxcompat.JAX_VERSION) with "
    "a tuple of ints instead.",
)

JAXCOMPAT_VERSION = Code(
    "JC032",
    "jaxcompat-version",
    "jax.__version__ read through `import jaxcompat as jax` is jaxcompat's own version, "
    "not JAX's, so a version gate written for JAX compares the wrong thing. Use "
    "jaxcompat.JAX_VERSION (an int tuple such as (0, 4, 30)) or JAX_VERSION_STRING.",
)

DEAD_GATE = Code(
    "JC033",
    "dead-gate",
    "A version gate (a comparison of the JAX version, a hasattr test on a JAX module, or "
    "try/except ImportError/AttributeError around JAX names) whose test has the same "
    "answer on every release of the range the library declares: one branch never runs "
    "there. The finding says which branch to keep; `jaxcompat migrate` removes the other "
    "for `if` gates, as pyupgrade removes sys.version_info branches below its floor.",
)

GATE_STILL_NEEDED = Code(
    "JC034",
    "gate-still-needed",
    "A version gate whose test differs between releases of the declared range, or tests "
    "what jaxcompat's data cannot evaluate per release (a private jax._src name, a "
    "behaviour): it is still needed. The finding says on which releases each branch "
    "runs, and the floor (jax>=...) from which the gate would be dead. Raise the floor "
    "there, or keep the gate: the code works either way, so these findings do not make "
    "check exit 1, and migrate lists them as notes (--ignore JC034 hides them).",
    fails_check=False,
)

JAXCOMPAT_NAME_UNAVAILABLE = Code(
    "JC040",
    "jaxcompat-name-unavailable",
    "A jaxcompat name that raises AttributeError on some releases in the range, because "
    "JAX cannot do it before a given release (the message names it and why). Raise the "
    "floor, or keep a hasattr check.",
    holds_floor=True,
)

JAXCOMPAT_KEYWORD_UNAVAILABLE = Code(
    "JC041",
    "jaxcompat-keyword-unavailable",
    "An argument of a call through a jaxcompat name that jaxcompat refuses on some "
    "releases in the range: a jaxcompat name takes the newest JAX signature, and some "
    "newest parameters it can take only from a given release (the message names it and "
    "why). A positional argument is read against the newest signature too, so a call "
    "written for an older signature may land on another parameter (make_mesh's third "
    "positional is axis_types): pass it by keyword, or raise the floor.",
)

CONFIG_OPTION_MISSING = Code(
    "JC050",
    "config-option-missing",
    'A jax.config option the code sets or reads (jax.config.update("jax_array", '
    'True), jax.config.read("..."), jax.config.jax_spmd_mode) that JAX\'s config does '
    "not have on some releases in the range: there the call raises AttributeError "
    "(Unrecognized config option). The finding lists those releases and what JAX's "
    "changelog says replaces the option (often nothing: an option that had no effect "
    "any more, such as jax_array, can be dropped), or the floor from which JAX has a "
    "newer option.",
)

ARRAY_ATTRIBUTE_BY_NAME = Code(
    "JC060",
    "array-attribute-by-name",
    "An attribute or method of JAX's array (x.device_buffer, x.device_buffers, "
    "x.device(), ...) that some releases in the range lack or warn on. The checker "
    "cannot know the type of x: the finding is a guess by name, and only names that no "
    "other common array library uses are reported. x.device (a property of PyTorch "
    "and TensorFlow tensors; JAX's from 0.4.31), x.to_device and x.mT (NumPy 2's) are "
    "never reported; x.layout (JAX's on 0.4.26-0.6.2, renamed format in 0.7.0) only in "
    "a file that imports JAX and not PyTorch, TensorFlow or CuPy, whose tensors have it "
    "too; x.device() with no argument is (a property elsewhere, a method on JAX before "
    "0.4.27). The "
    "message names the replacement JAX's changelog gives: x.addressable_data(0) for "
    "x.device_buffer, next(iter(x.devices())) for x.device(). Suppress a wrong guess "
    "with `# jaxcompat: ignore[JC060]`.",
)

CLASS_ATTRIBUTE = Code(
    "JC061",
    "class-attribute",
    "An attribute or method of an instance of one of JAX's public classes that some "
    "releases in the range lack or warn on: jax.ShapeDtypeStruct(...).sharding raises "
    "AttributeError on 0.4.13, jax.sharding.Mesh(...).axis_types exists from 0.4.36, "
    "jax.typeof(x).sharding from 0.5.1. The checker knows the instance where the code "
    "builds it: a call of the class (or of jax.make_mesh, which returns a Mesh, or "
    "jax.typeof, a ShapedArray), read at once or through a name assigned from that call in "
    "the same function; and a parameter annotated with the class (mesh: "
    "jax.sharding.Mesh). An unannotated argument is not followed. The releases come from "
    "jaxcompat's measurements of each matrix row.",
    holds_floor=True,
)

#: Every code, by its JCxxx.
CODES: dict[str, Code] = {
    code.code: code
    for code in (
        MISSING_NAME,
        DEPRECATED_NAME,
        REMOVED_NAME,
        KEYWORD_NOT_ACCEPTED,
        KEYWORD_DEPRECATED,
        POSITIONAL_CALL,
        MISSING_ARGUMENT,
        REPLACEABLE_GATE,
        STRING_VERSION_COMPARISON,
        JAXCOMPAT_VERSION,
        DEAD_GATE,
        GATE_STILL_NEEDED,
        JAXCOMPAT_NAME_UNAVAILABLE,
        JAXCOMPAT_KEYWORD_UNAVAILABLE,
        CONFIG_OPTION_MISSING,
        ARRAY_ATTRIBUTE_BY_NAME,
        CLASS_ATTRIBUTE,
    )
}
