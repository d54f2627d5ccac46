"""``jaxcompat.config``: the newest JAX's options, on every release that can honour them."""

import pytest

from ._helpers import run_python

NUM_CPU_DEVICES = """
import jaxcompat as jax
jax.config.update("jax_num_cpu_devices", 3)  # as a newest conftest does, before any operation
print(jax.config.jax_num_cpu_devices, jax.device_count())
jax.config.update("jax_enable_x64", True)  # every other option is JAX's own
print(jax.config.jax_enable_x64, jax.numpy.ones(1).dtype)
"""


@pytest.mark.subprocess
def test_num_cpu_devices_before_the_backend_starts():
    # One fresh interpreter with no XLA flags: the option alone decides the device count.
    result = run_python(NUM_CPU_DEVICES, env={"XLA_FLAGS": ""})
    assert result.stdout.splitlines() == ["3 3", "True float64"], result.stderr


def _newest_options():
    from jaxcompat._backports.keywords import newest_data

    return sorted(newest_data()["config_options"].items())


@pytest.mark.parametrize(("option", "first"), _newest_options())
def test_a_newest_option_the_release_lacks_is_a_clear_error(option, first):
    import jax

    import jaxcompat
    from jaxcompat import JAX_VERSION_STRING

    if hasattr(jax.config, option) or option == "jax_num_cpu_devices":
        return  # the release's own option (jax_num_cpu_devices: honoured, tested above)
    message = (
        f"jaxcompat.config option {option!r} needs JAX {first} or newer: JAX "
        f"{JAX_VERSION_STRING}'s jax.config has no such option, and jaxcompat cannot provide "
        "it there. Leave it unset on older releases (compare jaxcompat.JAX_VERSION), or "
        "upgrade JAX."
    )
    with pytest.raises(AttributeError) as raised:
        jaxcompat.config.update(option, True)
    assert str(raised.value) == message
    with pytest.raises(AttributeError) as raised:
        getattr(jaxcompat.config, option)
    assert str(raised.value) == message


def test_the_release_own_options_are_jax_own():
    import jax

    import jaxcompat

    assert jaxcompat.config.jax_enable_x64 is jax.config.jax_enable_x64
    assert jaxcompat.config.values == jax.config.values
    with pytest.raises(AttributeError, match="Unrecognized config option: jax_no_such_option"):
        jaxcompat.config.update("jax_no_such_option", True)
    every_newest = all(hasattr(jax.config, option) for option, _ in _newest_options())
    assert (jaxcompat.config is jax.config) == every_newest
