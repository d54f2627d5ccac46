"""No input crashes the interpreter through jaxcompat's own code: cycles and deep nesting.

jaxcompat's primitives (``block_if_array``, ``tracer_safe_hash``, a jitted method's state)
walk such inputs themselves, so nothing here may crash the interpreter or leave it damaged.
All those cases run in ONE fresh interpreter (each start costs a JAX import), one after the
other, each in a namespace of its own and reporting on its own: a case that raises names
itself, a crash names the case it happened in, and every case after the first also checks
that the ones before it left the interpreter sound. It must exit cleanly.

An argument of a jitted function reaches JAX's own flatten, as under ``jax.jit``: the same
exception, or the same broken interpreter, each compared with ``jax.jit`` in fresh
interpreters. Only where JAX's flatten segfaults (jaxlib 0.4.13) is it refused first, with a
clear error.
"""

import json
import re
import signal
import subprocess

import pytest

from ._fresh_interpreter import lines_after_markers
from ._helpers import run_python

CYCLIC_INPUTS = """
import jax, jax.numpy as jnp
import jaxcompat

@jax.tree_util.register_pytree_node_class
class Node:
    def __init__(self, children):
        self.children = children
    def tree_flatten(self):
        return self.children, None
    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(list(children))

def cyclic_list():
    value = [jnp.ones(2), 1]
    value.append(value)
    return value

def cyclic_dict():
    value = {"a": jnp.ones(2)}
    value["self"] = value
    return value

def node_holding_itself():
    node = Node([jnp.ones(2)])
    node.children.append(node)
    return node

def cycle_through_a_node():
    value = [Node([])]
    value[0].children.append(value)
    return value

def nested_lists():
    deep = [jnp.ones(1)]
    for _ in range(100_000):
        deep = [deep]
    return deep

def nested_dicts():
    deep = {"x": jnp.ones(1)}
    for _ in range(100_000):
        deep = {"x": deep}
    return deep

BUILDERS = {
    "cyclic list": cyclic_list,
    "cyclic dict": cyclic_dict,
    "node holding itself": node_holding_itself,
    "cycle through a node": cycle_through_a_node,
    "100,000 nested lists": nested_lists,
    "100,000 nested dicts": nested_dicts,
}

def inputs():
    return {name: build() for name, build in BUILDERS.items()}
"""

CASES = {
    "block_if_array": """
for name, value in inputs().items():
    assert jaxcompat.block_if_array(value) is value, name
    print("ok", name)
""",
    "tracer_safe_hash": """
for name, value in inputs().items():
    assert jaxcompat.tracer_safe_hash(value) == jaxcompat.tracer_safe_hash(value), name
    print("ok", name)
""",
    "jitted method": """
class Model:
    def __init__(self, state):
        self.state = state
        self.w = jnp.ones(2)

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x

for name, value in inputs().items():
    model = Model(value)
    try:
        result = model.apply(2.0)
    except ValueError as error:  # a clear error, naming where
        if name.startswith("100,000"):  # too deep to compare on every call
            assert "nested more than 200 levels" in str(error), error
        else:  # a pytree cannot be rebuilt around tracers if it holds itself
            assert name == "node holding itself", name
            assert "self.state[1] refers back to an enclosing tuple or pytree" in str(error)
    else:
        assert jnp.array_equal(result, jnp.full(2, 2.0)), name
    print("ok", name)
""",
}


# A dict subclass JAX does not register is a leaf to it, never flattened: JAX's own error.
STAGING_LEAF = """
import jax
import jaxcompat

def f(*args, **kwargs):
    return 1.0

class Config(dict):
    pass

config = Config()
config["self"] = config
errors = []
for stage in (lambda: jax.jit(f).lower(config), lambda: jaxcompat.lower(f, config)):
    try:
        stage()
    except TypeError as error:
        errors.append(str(error))
assert len(errors) == 2 and errors[0] == errors[1], errors
print("ok leaf")
print("done")
"""


# tracer_safe_hash under jit: tracers in a cycle through a pytree node and in deep nesting
# hash, twice the same, and raise nothing (warnings are errors here too).
HASHING_TRACERS = """
import jax, jax.numpy as jnp, warnings
from jaxcompat import tracer_safe_hash

@jax.tree_util.register_pytree_node_class
class Node:
    def __init__(self, children):
        self.children = children
    def tree_flatten(self):
        return (self.children,), None
    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

def nested(depth, leaf):
    tree = [leaf]
    for _ in range(depth):
        tree = [tree, 1]
    return tree

def body(t):
    node = Node([t])
    node.children.append(node)  # a cycle through a pytree node
    outer = {"node": node, "t": t}
    for obj in (node, outer, [node], nested(150, t), nested(5000, t), nested(150, node)):
        assert tracer_safe_hash(obj) == tracer_safe_hash(obj)
    assert tracer_safe_hash(nested(150, t)) == tracer_safe_hash(nested(150, t))
    return t

with warnings.catch_warnings():
    warnings.simplefilter("error")
    jax.jit(body)(1.0)
    print("ok traced")
    body(jnp.float32(1.0))
    print("ok concrete")
print("done")
"""


# The child runs every case and marks where each one's output starts; a case that raises
# prints its traceback there too, so that the test of that case shows it.
RUNNER = """
import faulthandler, sys, traceback
faulthandler.enable()  # a crash prints where it happened
for name, code in CASES.items():
    print("== case", name, flush=True)
    try:
        exec(code, {"__name__": "__main__"})
    except Exception:
        print(traceback.format_exc())
        print("== failed", name)
    sys.stdout.flush()
"""


@pytest.fixture(scope="module")
def fresh_interpreter():
    """Run every case of this file in one fresh interpreter: (result, output lines per case)."""
    cases = {name: CYCLIC_INPUTS + code + "\nprint('done')\n" for name, code in CASES.items()}
    cases["staging a leaf"] = STAGING_LEAF
    cases["hashing tracers"] = HASHING_TRACERS
    result = run_python(f"CASES = {cases!r}\n{RUNNER}")
    return result, lines_after_markers(result.stdout, "== case ")


def case_output(fresh_interpreter, name):
    result, outputs = fresh_interpreter
    assert name in outputs, f"never ran: the interpreter died first\n{result.stderr[-3000:]}"
    return outputs[name]


def assert_exited_cleanly(fresh_interpreter):
    result, outputs = fresh_interpreter
    last = list(outputs)[-1] if outputs else None
    assert result.returncode == 0, (
        f"exit code {result.returncode}, the last case started was {last!r}\n"
        + result.stderr[-3000:]
    )


@pytest.mark.parametrize("primitive", sorted(CASES))
def test_cycles_and_deep_nesting_exit_cleanly(primitive, fresh_interpreter):
    result, _ = fresh_interpreter
    lines = case_output(fresh_interpreter, primitive)
    assert lines[-1:] == ["done"], "\n".join(lines) + result.stderr[-3000:]
    assert len([line for line in lines if line.startswith("ok ")]) == 6, lines
    assert not any("RecursionError" in line for line in lines), lines
    assert_exited_cleanly(fresh_interpreter)
    assert "RecursionError" not in result.stderr, result.stderr[-3000:]


def test_a_cyclic_dict_subclass_is_a_leaf_as_under_jax(fresh_interpreter):
    lines = case_output(fresh_interpreter, "staging a leaf")
    assert lines == ["ok leaf", "done"], "\n".join(lines)
    assert_exited_cleanly(fresh_interpreter)


def test_tracer_safe_hash_of_tracers_in_cycles_and_deep_nesting(fresh_interpreter):
    # Moved from test_hashing.py to share this file's fresh interpreter: a crash in JAX's C++
    # flatten must report as a failure, not end the test run.
    lines = case_output(fresh_interpreter, "hashing tracers")
    assert lines == ["ok traced", "ok concrete", "done"], "\n".join(lines)
    assert_exited_cleanly(fresh_interpreter)


# One input, every way a jitted function stages it, with jax.jit (WHICH == "jax") or with
# jaxcompat (anything else). Each outcome is printed as it happens, so a crash or a broken
# interpreter shows where; addresses are masked. A stage JAX's jitted function lacks is
# "absent" on both sides.
SAME_AS_JAX = """
import re

class Model:
    def apply(self, x):
        return 1.0

def f(x):
    return 1.0

own = jax.jit(f)
if WHICH == "jax":
    jitted, method = own, jax.jit(Model().apply)
    stage_lower = own.lower
    stage_trace = getattr(own, "trace", None)
else:
    jitted, method = jaxcompat.jit(f), jaxcompat.jit(Model().apply)
    stage_lower = lambda value: jaxcompat.lower(f, value)
    stage_trace = lambda value: jaxcompat.trace(f, value)
stages = {
    "jit(f).lower": getattr(jitted, "lower", None),
    "jit(f).trace": jitted.trace if hasattr(own, "trace") else None,
    "jit(f).eval_shape": jitted.eval_shape if hasattr(own, "eval_shape") else None,
    "lower(f)": stage_lower,
    "trace(f)": stage_trace if hasattr(own, "trace") else None,
    "jit(obj.method)": method,
    "jit(f)": jitted,
}
value = BUILDERS[NAME]()  # this child's input alone: the deep ones take a while
for stage, call in stages.items():
    if call is None:
        print(stage, "absent", flush=True)
        continue
    try:
        call(value)
    except Exception as error:
        text = re.sub("0x[0-9a-f]+", "0x", str(error))
        if text.startswith("jaxcompat."):  # jaxcompat's own refusal: its exact words
            print(stage, type(error).__name__, text, flush=True)
        else:
            # JAX's flatten raised. Which exception depends on the depth of the stack when the
            # recursion limit is met, from run to run for the same input (measured: a
            # RecursionError or a SystemError around one on JAX 0.4.18; an AttributeError from
            # JAX's half-updated config state on 0.5.0), so only that JAX raised is compared.
            print(stage, "raised by JAX", flush=True)
    else:
        print(stage, "staged", flush=True)
    try:  # what follows a broken interpreter is noise: stop there
        assert float(jax.jit(lambda x: x + 1)(1.0)) == 2.0
    except Exception as error:
        print("broken", flush=True)
        break
else:
    print("sound", flush=True)
"""

REFUSED = re.compile(
    r"^\S+ (ValueError jaxcompat\.(jit|lower|trace): args\[0\].* refers back to an "
    r"enclosing |RecursionError jaxcompat\.(jit|lower|trace): args\[0\] is nested more than )"
)


#: The stages SAME_AS_JAX runs, in its order.
STAGES = [
    "jit(f).lower",
    "jit(f).trace",
    "jit(f).eval_shape",
    "lower(f)",
    "trace(f)",
    "jit(obj.method)",
    "jit(f)",
]


NAMES = ["cyclic list", "cyclic dict", "node holding itself", "100,000 nested lists"]

# Each (WHICH, NAME) of SAME_AS_JAX in a child forked from one interpreter that has imported
# JAX and jaxcompat but not started a backend: as fresh as a new interpreter for what is
# compared (the child starts the backend and compiles everything itself), without importing
# JAX eight times. A child that crashes or breaks its interpreter leaves the others alone.
FORKED_STAGES = """
import json, os, sys, tempfile, traceback

def run_in_child(which, name):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            code = 0
            try:
                exec(SAME_AS_JAX, {**globals(), "WHICH": which, "NAME": name})
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        out.seek(0)
        err.seek(0)
        return {"returncode": code, "stdout": out.read().decode(), "stderr": err.read().decode()}

print(json.dumps([
    [which, name, run_in_child(which, name)] for which in ("jax", "jaxcompat") for name in NAMES
]))
"""


@pytest.fixture(scope="module")
def stages():
    """{(WHICH, NAME): the outcome of SAME_AS_JAX in its own child interpreter}."""
    code = f"NAMES = {NAMES!r}\nSAME_AS_JAX = {SAME_AS_JAX!r}\n"
    result = run_python(CYCLIC_INPUTS + code + FORKED_STAGES)
    assert result.returncode == 0, result.stderr[-3000:]
    return {
        (which, name): subprocess.CompletedProcess([], **outcome)
        for which, name, outcome in json.loads(result.stdout.splitlines()[-1])
    }


def _outcome(result):
    """(the outcome of each stage up to the one that broke the interpreter, that stage or
    None): raising and leaving it broken, or ending it, are one outcome (a broken interpreter
    fails in ways that depend on its stack, and a method's stack is jaxcompat's own)."""
    lines = result.stdout.splitlines()
    if lines[-1:] == ["sound"] and result.returncode == 0:
        return lines[:-1], None
    if lines[-1:] == ["broken"]:
        return lines[:-2], lines[-2].split()[0]
    return lines, STAGES[len(lines)]  # ended while running the next stage


@pytest.mark.parametrize("name", NAMES)
def test_an_argument_that_holds_itself_meets_what_jax_jit_does(name, stages):
    # Where JAX's flatten segfaults, jaxcompat refuses the argument first, with a clear error,
    # and the interpreter stays sound; everywhere else it reaches JAX's flatten, as under
    # jax.jit: the same exception at each stage, and a broken interpreter only where JAX's
    # flatten breaks it on the same input too. Where that happens depends on the depth of the
    # stack when the recursion limit is met (measured on JAX 0.4.27: a dict that holds itself
    # makes one process's jax.jit(f).eval_shape raise and another's end the interpreter), so
    # the stages both ran are compared up to the first that broke it.
    theirs, ours = stages["jax", name], stages["jaxcompat", name]
    if theirs.returncode == -signal.SIGSEGV:
        lines = ours.stdout.splitlines()
        assert ours.returncode == 0, ours.stderr[-3000:]
        assert lines[-1] == "sound", ours.stdout  # every stage refused
        for line in lines[:-1]:
            assert line.endswith(" absent") or REFUSED.match(line), line
        return
    stderr = (ours.stderr[-2000:], theirs.stderr[-2000:])
    (our_stages, we_broke), (their_stages, they_broke) = _outcome(ours), _outcome(theirs)
    assert (we_broke is None) == (they_broke is None), (we_broke, they_broke, stderr)
    ran = min(len(our_stages), len(their_stages))
    assert our_stages[:ran] == their_stages[:ran], stderr
    if we_broke is None:
        assert our_stages == their_stages, stderr


# Where the screen is (jaxlib 0.4.13), its exact words: where the cycle closes, at every
# stage, for a function, a method and jaxcompat.lower/trace, keyword arguments included.
SCREEN_MESSAGES = """
import collections

Pair = collections.namedtuple("Pair", "left right")
pair = Pair([], jnp.ones(2))
pair.left.append(pair)
cycles = inputs()

class Model:
    @jaxcompat.jit
    def apply(self, x=None, **kwargs):
        return 1.0

def f(x=None, **kwargs):
    return 1.0

jitted = jaxcompat.jit(f)
lower = lambda *args, **kwargs: jaxcompat.lower(f, *args, **kwargs)
trace = lambda *args, **kwargs: jaxcompat.trace(f, *args, **kwargs)
# (verb, stage, args, kwargs, where the cycle closes, the enclosing part's type)
stages = [
    ("jit", jitted, (cycles["cyclic list"],), {}, "args[0][2]", "list"),
    ("jit", Model().apply, (cycles["cyclic dict"],), {}, "args[0]['self']", "dict"),
    ("lower", jitted.lower, (cycles["node holding itself"],), {}, "args[0].<child 1>", "Node"),
    ("trace", Model().apply.trace, (cycles["cycle through a node"],), {}, "args[0][0].<child 0>",
     "list"),
    ("jit", jitted.eval_shape, (), {"y": cycles["cyclic list"]}, "y[2]", "list"),
    ("lower", lower, (1.0,), {"y": pair}, "y.<child 0>[0]", "Pair"),
    ("trace", trace, (cycles["cyclic dict"],), {}, "args[0]['self']", "dict"),
]
for verb, call, args, kwargs, where, kind in stages:
    try:
        call(*args, **kwargs)
    except ValueError as error:
        assert str(error) == (
            f"jaxcompat.{verb}: {where} refers back to an enclosing {kind}: a pytree that "
            "contains itself cannot be staged on any "
            f"JAX release (JAX {jaxcompat.JAX_VERSION_STRING} would crash or raise an internal "
            "error). Break the cycle before passing it."
        ), error
        print("ok", verb)
    else:
        print("no error", verb, where, kind)
try:
    jitted(cycles["100,000 nested lists"])
except RecursionError as error:
    assert str(error).startswith("jaxcompat.jit: args[0] is nested more than "), error
    print("ok deep")
print("done")
"""


@pytest.mark.jax("<0.4.18")
def test_the_screen_names_where_the_cycle_closes_where_jaxlib_segfaults():
    result = run_python(CYCLIC_INPUTS + SCREEN_MESSAGES)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == [
        "ok jit",
        "ok jit",
        "ok lower",
        "ok trace",
        "ok jit",
        "ok lower",
        "ok trace",
        "ok deep",
        "done",
    ], result.stdout + result.stderr[-3000:]
