"""No input crashes the interpreter: cycles and deep nesting, each primitive in a fresh process.

jaxlib's C++ flatten overflows the C stack on a self-referential pytree on JAX 0.4.13 (a
segfault) and raises SystemError, breaking the recursion counter, on later releases. Each
primitive runs here in its own interpreter, which must exit cleanly with the expected output.
"""

import pytest

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


@pytest.mark.parametrize("primitive", sorted(CASES))
def test_cycles_and_deep_nesting_exit_cleanly(primitive):
    result = run_python(CYCLIC_INPUTS + CASES[primitive] + "\nprint('done')\n")
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[-1] == "done", result.stdout
    assert len([line for line in lines if line.startswith("ok ")]) == 6, result.stdout
    assert "RecursionError" not in result.stderr, result.stderr[-3000:]


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
print("done")
"""


def test_lower_and_trace_refuse_a_cycle_with_a_clear_error():
    # In a fresh process: JAX 0.4.13's own flatten would crash the interpreter on these.
    result = run_python(STAGING_CYCLES)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["ok lower", "ok trace", "ok lower", "done"]
