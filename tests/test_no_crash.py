"""No input crashes the interpreter: cycles and deep nesting, every primitive, in a fresh process.

jaxlib's C++ flatten overflows the C stack on a self-referential pytree on JAX 0.4.13 (a
segfault) and raises SystemError, breaking the recursion counter, on later releases. jaxcompat
refuses or walks such inputs before JAX sees them, so nothing here may crash the interpreter or
leave it damaged. All cases run in ONE fresh interpreter (each start costs a JAX import), one
after the other, each in a namespace of its own and reporting on its own: a case that raises
names itself, a crash names the case it happened in, and every case after the first also checks
that the ones before it left the interpreter sound. It must exit cleanly.
"""

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

def inputs():
    cyclic_list = [jnp.ones(2), 1]
    cyclic_list.append(cyclic_list)
    cyclic_dict = {"a": jnp.ones(2)}
    cyclic_dict["self"] = cyclic_dict
    node = Node([jnp.ones(2)])
    node.children.append(node)
    through_node = [Node([])]
    through_node[0].children.append(through_node)
    deep = [jnp.ones(1)]
    for _ in range(100_000):
        deep = [deep]
    deep_dict = {"x": jnp.ones(1)}
    for _ in range(100_000):
        deep_dict = {"x": deep_dict}
    return {
        "cyclic list": cyclic_list,
        "cyclic dict": cyclic_dict,
        "node holding itself": node,
        "cycle through a node": through_node,
        "100,000 nested lists": deep,
        "100,000 nested dicts": deep_dict,
    }
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


STAGING_CYCLES = """
import collections
import jax.numpy as jnp
import jaxcompat

Pair = collections.namedtuple("Pair", "left right")
cyclic_list = [jnp.ones(2), 1]
cyclic_list.append(cyclic_list)
cyclic_dict = {"a": jnp.ones(2)}
cyclic_dict["self"] = [cyclic_dict]
pair = Pair([], jnp.ones(2))
pair.left.append(pair)

def f(*args, **kwargs):
    return 1.0

cases = [
    ("lower", (cyclic_list,), {}, "args[0][2] refers back to an enclosing list"),
    ("trace", (), {"x": cyclic_dict}, "x['self'][0] refers back to an enclosing dict"),
    ("lower", (1.0, pair), {}, "args[1].<child 0>[0] refers back to an enclosing Pair"),
]
for verb, args, kwargs, where in cases:
    try:
        getattr(jaxcompat, verb)(f, *args, **kwargs)
    except ValueError as error:
        assert str(error) == (
            f"jaxcompat.{verb}: {where}: a pytree that contains itself cannot be staged on any "
            f"JAX release (JAX {jaxcompat.JAX_VERSION_STRING} would crash or raise an internal "
            "error). Break the cycle before passing it."
        ), error
        print("ok", verb)
# The same containers without their cycle stage as usual.
cyclic_list.pop()
assert jaxcompat.lower(f, cyclic_list).as_text()
# A dict subclass JAX does not register is a leaf to it, never flattened: JAX's own error.
import jax

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
# 100,000 levels deep: the cycle check walks it in little memory (a path string per level
# took gigabytes), and what JAX then does with it, lowering or raising, ends nothing.
deep_list = [jnp.ones(1)]
for _ in range(100_000):
    deep_list = [deep_list]
for verb in ("lower", "trace"):
    try:
        getattr(jaxcompat, verb)(f, deep_list)
    except (RecursionError, SystemError) as error:
        print("raised", verb, type(error).__name__)
    else:
        print("staged", verb)
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


# A jitted call, its lower and trace, for a function and a method: JAX's flatten crashes the
# interpreter on a dict or a pytree node that holds itself on every release (0.4.13: any cycle;
# later releases raise an internal error for a list), and on nesting deeper than CPython lets
# C code recurse it raises an internal error that can leave JAX broken (0.8.0) or, on 0.4.13,
# crashes: every release refuses both first.
JIT_CALLS = """
import sys
import jaxcompat._backends._common.cycles

class Model:
    @jaxcompat.jit
    def apply(self, x):
        return 1

function = jaxcompat.jit(lambda x: 1)
calls = {
    "jit": (function, Model().apply),
    "lower": (function.lower, Model().apply.lower),
    "trace": (function.trace, Model().apply.trace),
}
CYCLES = {
    "cyclic list": "[2] refers back to an enclosing list",
    "cyclic dict": "['self'] refers back to an enclosing dict",
    "node holding itself": ".<child 1> refers back to an enclosing Node",
    "cycle through a node": "[0].<child 0> refers back to an enclosing list",
}
for name, value in inputs().items():
    outcomes = set()
    for verb, pair in calls.items():
        for call in pair:  # a function, a method
            try:
                call(value)
            except ValueError as error:
                assert str(error) == (
                    f"jaxcompat.{verb}: args[0]{CYCLES[name]}: a pytree that contains itself "
                    "cannot be staged on any JAX release (JAX "
                    f"{jaxcompat.JAX_VERSION_STRING} would crash or raise an internal error). "
                    "Break the cycle before passing it."
                ), error
                outcomes.add("refused")
            except RecursionError as error:
                assert name.startswith("100,000"), (name, error)
                deepest = jaxcompat._backends._common.cycles.deepest_flattened()
                assert str(error) == (
                    f"jaxcompat.{verb}: args[0] is nested more than {deepest} levels deep, "
                    f"more than JAX {jaxcompat.JAX_VERSION_STRING} can flatten on Python "
                    f"{sys.version_info.major}.{sys.version_info.minor} (its flatten raises an "
                    "internal error there, which can leave JAX broken, or crashes). Nest it "
                    "less deeply."
                ), error
                outcomes.add("refused deep")
            else:
                raise AssertionError(f"{name}: no error")
    # The interpreter is sound after each: a new call works and recursion has its full depth.
    assert float(jaxcompat.jit(lambda x: x + 1)(1.0)) == 2.0
    def depth(n=0):
        try:
            return depth(n + 1)
        except RecursionError:
            return n
    assert depth() > sys.getrecursionlimit() - 100
    print("ok", name, *sorted(outcomes))
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
    cases["staging"] = STAGING_CYCLES
    cases["hashing tracers"] = HASHING_TRACERS
    cases["jit calls"] = CYCLIC_INPUTS + JIT_CALLS
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


def test_lower_and_trace_refuse_a_cycle_with_a_clear_error(fresh_interpreter):
    # In the fresh process: JAX 0.4.13's own flatten would crash the interpreter on these.
    lines = case_output(fresh_interpreter, "staging")
    assert lines[:3] == ["ok lower", "ok trace", "ok lower"], "\n".join(lines)
    assert [line.split()[:2] for line in lines[3:5]] in (
        [["raised", "lower"], ["raised", "trace"]],
        [["staged", "lower"], ["staged", "trace"]],
    ), "\n".join(lines)
    assert lines[5:] == ["done"], "\n".join(lines)
    assert_exited_cleanly(fresh_interpreter)


def test_tracer_safe_hash_of_tracers_in_cycles_and_deep_nesting(fresh_interpreter):
    # Moved from test_hashing.py to share this file's fresh interpreter: a crash in JAX's C++
    # flatten must report as a failure, not end the test run.
    lines = case_output(fresh_interpreter, "hashing tracers")
    assert lines == ["ok traced", "ok concrete", "done"], "\n".join(lines)
    assert_exited_cleanly(fresh_interpreter)


def test_a_jitted_call_lower_and_trace_refuse_cycles_and_deep_nesting(fresh_interpreter):
    lines = case_output(fresh_interpreter, "jit calls")
    assert lines == [
        "ok cyclic list refused",
        "ok cyclic dict refused",
        "ok node holding itself refused",
        "ok cycle through a node refused",
        "ok 100,000 nested lists refused deep",
        "ok 100,000 nested dicts refused deep",
        "done",
    ], "\n".join(lines)
    assert_exited_cleanly(fresh_interpreter)
