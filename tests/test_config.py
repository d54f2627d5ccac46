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
    from jaxcompat._keywords.adapter import newest_data

    return sorted(newest_data()["config_options"].items())


def _newest_options_but_num_cpu_devices():
    # jax_num_cpu_devices is honoured by jaxcompat where JAX lacks it: the test above.
    return [
        (option, first) for option, first in _newest_options() if option != "jax_num_cpu_devices"
    ]


@pytest.mark.parametrize(("option", "first"), _newest_options_but_num_cpu_devices())
def test_each_newest_option_is_jax_own_or_a_clear_error(option, first):
    import jax

    import jaxcompat
    from jaxcompat import JAX_VERSION_STRING
    from jaxcompat._releases import parse_release

    if option in jax.config.values:
        # Some newest options are flags that JAX's config sets but cannot read as an
        # attribute, on the newest release too (jax_check_proxy_envs): reading one is JAX's
        # own AttributeError, not jaxcompat's "needs JAX ..." (which named a release already
        # installed).
        assert _attribute_error(jaxcompat.config, option) == _attribute_error(jax.config, option)
        if _attribute_error(jax.config, option) is None:
            assert getattr(jaxcompat.config, option) == getattr(jax.config, option)
        return
    assert parse_release(first) > jaxcompat.JAX_VERSION  # the data's first release is right
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
    # jax_num_cpu_devices: the newest reads it, JAX 0.5.0 only sets it (a flag).
    every_newest = all(option in jax.config.values for option, _ in _newest_options())
    reads_num_cpu_devices = hasattr(jax.config, "jax_num_cpu_devices")
    assert (jaxcompat.config is jax.config) == (every_newest and reads_num_cpu_devices)


def _attribute_error(config, option):
    try:
        getattr(config, option)
    except AttributeError as error:
        return str(error)
    return None
