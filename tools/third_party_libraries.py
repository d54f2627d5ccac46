"""The published JAX libraries whose own test suites run through jaxcompat, and their rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Library:
    """A published JAX library whose own tests are run, and the rows they are run on."""

    name: str  # its name on the package index
    version: str  # the release whose sdist (source and tests) is used
    floor: str  # the JAX floor that release declares (its requirement jax>=floor)
    below_floor: tuple[str, ...]  # matrix rows below the floor, the proof
    dependencies: tuple[str, ...]  # its non-JAX requirements and test requirements
    tests: tuple[str, ...] = ()  # a fixed subset of its test files; () runs them all
    ignore: tuple[str, ...] = ()  # test files left out, each for the reason in `why`
    why: str = ""
    # Single tests left out (pytest ids under the copy), each for the reason in `deselected_why`.
    deselect: tuple[str, ...] = ()
    deselected_why: str = ""
    # Each test file in a fresh interpreter, where some must set up JAX's devices first.
    per_file: bool = False
    # Warnings are errors, except these (none about the library's own use of JAX), each
    # with its reason beside it.
    allowed_warnings: tuple[str, ...] = ()
    # The Python package the distribution installs, where its name differs from `name`.
    import_name: str = ""
    # Where the sdist keeps the tests, when not inside the package, and how they are named.
    test_directory: str = ""
    test_files: str = "*_test.py"
    # Where pytest runs, inside the copy, when the tests open files by paths relative to it.
    working_directory: str = ""
    # The source repository, for a library whose sdist holds no tests: its release tag
    # (`v<version>`) is checked out instead of the sdist (the noxfile's `_checkout`).
    repository: str = ""
    # Libraries it needs whose releases it admits all declare a JAX floor above its rows
    # below the floor (Equinox's stack), each as `name==version`, the release its floor row
    # resolves to. On those rows, where a resolve with the row's JAX pinned finds none, they are
    # installed without their dependencies and copied beside it: raw they run as published,
    # ported as their own `jaxcompat migrate` would leave them. On the floor row and newest
    # they are resolved as any dependency is.
    carried: tuple[str, ...] = ()

    @property
    def package(self) -> str:
        return self.import_name or self.name

    @property
    def copied(self) -> tuple[str, ...]:
        """The sdist's directories that are copied and rewritten: the package, then its tests."""
        return (self.package, self.test_directory) if self.test_directory else (self.package,)

    @property
    def ignored(self) -> tuple[str, ...]:
        """The prefixes of the test files left out: a file, or a directory and what it holds."""
        return tuple(path if path.endswith(".py") else f"{path}/" for path in self.ignore)

    @property
    def tag(self) -> str:
        """The release's tag in its source repository."""
        return f"v{self.version}"

    def carried_on(self, row: str) -> tuple[str, ...]:
        """The libraries carried on ROW: on a row below the floor, all of them."""
        return self.carried if row in self.below_floor else ()

    def requirements_on(self, row: str) -> tuple[str, ...]:
        """What is resolved with the row's JAX pinned: the dependencies, and on the floor
        row and newest the carried libraries too (by name: the resolve picks the release)."""
        carried = () if self.carried_on(row) else self.carried
        return (*self.dependencies, *(req.partition("==")[0] for req in carried))

    def carried_packages(self, row: str) -> tuple[str, ...]:
        """The Python packages the libraries carried on ROW install."""
        return tuple(req.partition("==")[0].replace("-", "_") for req in self.carried_on(row))

    @property
    def rows(self) -> tuple[str, ...]:
        return (*self.below_floor, self.floor, NEWEST)


NEWEST = "newest"

# TensorFlow Probability's JAX backend (distrax is built on it) reads
# `jax.core.pytype_aval_mappings`, which JAX deprecates from 0.10.2, and its releases for JAX
# 0.6 and older `jax.interpreters.xla.pytype_aval_mappings`, deprecated on 0.5.3-0.6.2: JAX's
# warnings about a dependency's code, on every test that imports distrax, raw and ported
# alike.
TFP_READS_PYTYPE_AVAL_MAPPINGS = (
    "ignore:jax.core.pytype_aval_mappings is deprecated:DeprecationWarning",
    "ignore:jax.interpreters.xla.pytype_aval_mappings is deprecated:DeprecationWarning",
)

LIBRARIES = {
    library.name: library
    for library in (
        Library(
            name="optax",
            version="0.2.8",
            floor="0.5.3",
            below_floor=("0.4.30", "0.4.36", "0.5.0"),
            dependencies=("absl-py>=0.7.1", "numpy>=1.18.0", "scipy>=1.7.1", "scikit-learn"),
            # The whole suite takes well over 5 minutes per run on a shared 2-core machine:
            # the core (the update machinery, transforms, tree utilities, schedules).
            tests=(
                "optax/optax_test.py",
                "optax/_src",
                "optax/transforms",
                "optax/tree_utils",
                "optax/schedules",
                "optax/microbatching",
            ),
            ignore=(
                "optax/_src/alias_test.py",
                "optax/_src/linear_algebra_test.py",
                "optax/transforms/_accumulation_test.py",
                "optax/_src/linesearch_test.py",
                "optax/schedules/_schedule_test.py",
            ),
            why=(
                "the first three import flax, which pins a newer JAX and would need the same "
                "rewrite; linesearch_test.py alone takes minutes; _schedule_test.py imports "
                "alias_test.py"
            ),
            # sharding_test.py builds an optimizer without a key at import time: optax's
            # own deprecation of itself, not JAX's, would stop the whole file.
            allowed_warnings=("ignore:Specifying a key will be required:UserWarning",),
        ),
        Library(
            name="chex",
            version="0.1.92",
            floor="0.7.0",
            below_floor=("0.4.30", "0.5.3", "0.6.2"),
            dependencies=(
                "absl-py>=2.3.1",
                "typing_extensions>=4.15.0",
                "numpy>=1.24.1",
                "toolz>=1.0.0",
                "cloudpickle",
            ),
            # fake_test.py and fake_set_n_cpu_devices_test.py set the CPU device count, which
            # only works before JAX initialises its backends.
            per_file=True,
        ),
        Library(
            name="dm-haiku",
            import_name="haiku",
            version="0.0.17",
            floor="0.11.0",
            below_floor=("0.4.30", "0.4.36", "0.7.2"),
            dependencies=(
                "absl-py>=0.7.1",
                "jmp>=0.0.2",
                "numpy>=1.18.0",
                "tabulate>=0.8.9",
                "dm-tree>=0.1.1",
                "cloudpickle>=1.2.2",
                "dill",
            ),
            # The whole of haiku/_src without its integration tests takes over 10 minutes per
            # run on a shared 2-core machine: the core (modules, transforms, state, layers).
            tests=("haiku/_src",),
            ignore=(
                "haiku/_src/integration",
                "haiku/_src/nets",
                "haiku/_src/recurrent_test.py",
                "haiku/_src/conv_test.py",
                "haiku/_src/flax",
                "haiku/_src/transform_test.py",
                "haiku/_src/reshape_test.py",
            ),
            why=(
                "the integration tests run every module through every transform (hours); the "
                "model zoo (nets), the recurrent cores and the convolutions take half of the "
                "remaining time (five of ten minutes); the flax interoperability tests import "
                "flax, which pins a newer JAX and would need the same rewrite; "
                "transform_test.py and reshape_test.py import TensorFlow"
            ),
            # haiku's deprecations of its own arguments, which its tests call on purpose.
            allowed_warnings=(
                "ignore:w_init_scale is deprecated:DeprecationWarning",
                "ignore:When running under vmap, passing an `int`:DeprecationWarning",
                "ignore:Passing a value into initialize instead of a shape:DeprecationWarning",
            ),
        ),
        Library(
            name="blackjax",
            version="1.5",
            floor="0.9.0",
            below_floor=("0.4.30", "0.4.36"),
            # optax and chex resolve, with the row's JAX pinned, to releases that support it;
            # fastprogress is its "progress" extra, which the sampling tests use.
            dependencies=(
                "numpy>=1.25",
                "optax>=0.2.3",
                "scipy>=1.13",
                "typing-extensions>=4.4.0",
                "fastprogress>=1.0.0,<1.1",
                "chex",
                "absl-py",
            ),
            test_directory="tests",
            test_files="test_*.py",
            ignore=(
                "tests/test_benchmarks.py",
                "tests/optimizers/test_pathfinder.py",
                "tests/test_diagnostics.py",
                "tests/smc/test_persistent_sampling.py",
                "tests/smc/test_inner_kernel_tuning.py",
            ),
            why=(
                "test_benchmarks.py is timings, for pytest-benchmark; the other four are the "
                "slowest files after the sampling tests (a third of the run's time)"
            ),
            # JAX 0.9.0's XLA segfaulted compiling a test of test_util.py late in one run of
            # the whole suite (raw, the floor row); alone, the file passes. A crash loses only
            # its own file's results.
            per_file=True,
        ),
        Library(
            name="mctx",
            version="0.0.71",
            floor="0.7.0",
            below_floor=("0.4.30", "0.6.2"),
            # chex resolves, with the row's JAX pinned, to a release that supports it.
            dependencies=("chex", "absl-py>=2.3.1", "numpy>=1.24.1"),
            # tree_test.py opens "../mctx/_src/tests/test_data/...": it runs from mctx/.
            working_directory="mctx",
        ),
        Library(
            name="penzai",
            version="0.2.5",
            floor="0.4.23",
            below_floor=("0.4.13", "0.4.20"),
            # chex (its tests use it) resolves, with the row's JAX pinned, to a release
            # that supports it.
            dependencies=(
                "absl-py>=1.4.0",
                "chex",
                "numpy>=1.25.2",
                "ordered_set>=4.1.0",
                "treescope>=0.1.9",
                "typing_extensions>=4.2",
            ),
            test_directory="tests",
            ignore=(
                "tests/deprecated/v1/example_models/simple_mlp_test.py",
                "tests/deprecated/v1/toolshed",
                "tests/models/simple_mlp_test.py",
                "tests/models/transformer_consistency_test.py",
                "tests/toolshed/unflaxify_test.py",
                "tests/toolshed/lora_test.py",
            ),
            why=(
                "they import flax, optax, torch or transformers (penzai's `extras`), which pin "
                "newer JAX releases or are not JAX libraries"
            ),
            # treescope (its renderer, which penzai's reprs use) reaches `numpy.char`, which
            # NumPy 2.5 deprecates: NumPy's warning about a dependency, on every test that
            # prints a penzai object, not JAX's.
            allowed_warnings=("ignore:The chararray class is deprecated:DeprecationWarning",),
        ),
        Library(
            name="jax_dataclasses",
            version="1.6.3",
            # Its setup.py declares jax>=0.4.25 ("for jax.tree_util.default_registry").
            floor="0.4.25",
            below_floor=("0.4.13", "0.4.20"),
            dependencies=("typing_extensions",),
            test_directory="tests",
            test_files="test_*.py",
            ignore=("tests/test_serialization.py", "tests/test_variadic_generic_py312.py"),
            why=(
                "the first imports flax (its `testing` extra), which pins a newer JAX; the "
                "second is in Python 3.12's syntax, which the rows below the floor (Python "
                "3.11) cannot read"
            ),
        ),
        Library(
            name="gymnax",
            version="1.0.1",
            # It declares jax>=0.6,<0.12 (and >=0.8.1 on Python 3.14, no row's Python).
            floor="0.6.0",
            below_floor=("0.4.13", "0.5.3"),
            # Its requirements (flax resolves, with the row's JAX pinned, to a release that
            # supports it), and what its tests import: chex, six, and pygame for the renderer.
            dependencies=(
                "flax",
                "gymnasium>=1.1,<1.4",
                "matplotlib",
                "seaborn",
                "chex",
                "six",
                "pygame",
            ),
            test_directory="tests",
            test_files="test_*.py",
        ),
        Library(
            name="rlax",
            version="0.1.9",
            floor="0.7.0",
            below_floor=("0.4.30", "0.6.2"),
            # Its requirements and its `test` extra; chex, distrax, dm-haiku, flax and optax
            # resolve, with the row's JAX pinned, to releases that support it.
            dependencies=(
                "absl-py>=2.3.1",
                "chex",
                "distrax",
                "dm_env>=1.6",
                "numpy>=1.24.1",
                "dm-haiku",
                "flax",
                "optax",
            ),
            # pop_art_test.py sets the CPU device count, which only works before JAX
            # initialises its backends.
            per_file=True,
            allowed_warnings=(
                # rlax's deprecations of its own functions, which its tests call on purpose.
                "ignore:Rlax :PendingDeprecationWarning",
                *TFP_READS_PYTYPE_AVAL_MAPPINGS,
            ),
        ),
        Library(
            name="numpyro",
            version="0.22.0",
            floor="0.7.0",
            below_floor=("0.4.30", "0.5.3", "0.6.2"),
            # Its requirements and what its tests import (its `test` extra without the
            # linters).
            dependencies=(
                "multipledispatch",
                "numpy",
                "tqdm",
                "pyro-api>=0.1.1",
                "scikit-learn",
                "scipy>=1.9",
                # test_pickle.py's discrete-latent-variable models.
                "funsor",
            ),
            test_directory="test",
            test_files="test_*.py",
            ignore=(
                "test/test_distributions.py",
                "test/test_gof.py",
                "test/test_distributions_mixture.py",
                "test/test_distributions_util.py",
                "test/test_transforms.py",
                "test/test_flows.py",
                "test/test_nn.py",
                "test/test_examples.py",
                "test/test_example_utils.py",
                "test/test_model_rendering.py",
            ),
            why=(
                "test_distributions.py (5,900 lines: every distribution's moments and "
                "gradients) takes most of an hour per run on a shared 2-core machine, and "
                "test_gof.py imports it; the next five files take 7 minutes (measured on the "
                "newest JAX), against 90 seconds for the rest; test_examples.py runs the "
                "example scripts, test_example_utils.py downloads their datasets, and "
                "test_model_rendering.py needs graphviz"
            ),
            deselect=("test/test_diagnostics.py::test_hpdi",),
            deselected_why=(
                "it draws 20,000 unseeded NumPy samples and compares their interval with a "
                "tolerance, so it fails or passes by chance, raw and ported alike (measured: "
                "failed raw on the newest JAX, 0.7.0 and 0.6.2, passed ported on 0.7.0)"
            ),
        ),
        Library(
            name="distrax",
            version="0.1.9",
            floor="0.7.0",
            below_floor=("0.4.30", "0.6.2"),
            # Its requirements and its `test` extra; chex, dm-haiku and flax resolve, with
            # the row's JAX pinned, to releases that support it.
            dependencies=(
                "absl-py>=2.3.1",
                "chex",
                "numpy>=1.24.1",
                "tfp-nightly",
                "dm-haiku",
                "flax",
                "mock>=4.0.3",
            ),
            # The utilities and the bijectors alone are 3,600 tests, 10 minutes per run on a
            # shared 2-core machine (measured on the newest JAX): the utilities and four
            # elementwise bijectors.
            tests=(
                "distrax/_src/utils",
                "distrax/_src/bijectors/tanh_test.py",
                "distrax/_src/bijectors/sigmoid_test.py",
                "distrax/_src/bijectors/scalar_affine_test.py",
                "distrax/_src/bijectors/shift_test.py",
            ),
            ignore=(
                "distrax/_src/utils/transformations_test.py",
                "distrax/_src/utils/hmm_test.py",
            ),
            why=(
                "together 518 of the utilities' 583 tests and a quarter of the time above "
                "(hmm_test.py alone 140 of 570 seconds of test time, measured on the newest "
                "JAX)"
            ),
            allowed_warnings=TFP_READS_PYTYPE_AVAL_MAPPINGS,
        ),
        Library(
            name="flax",
            version="0.12.8",
            floor="0.10.0",
            below_floor=("0.4.30", "0.8.2", "0.9.0"),
            # Its requirements (optax and orbax-checkpoint resolve, with the row's JAX pinned,
            # to releases that support it) and what the tests run here import.
            dependencies=(
                "numpy>=1.23.2",
                "msgpack",
                "optax",
                "orbax-checkpoint",
                "tensorstore",
                "rich>=11.1",
                "typing_extensions>=4.2",
                "PyYAML>=5.4.1",
                "treescope>=0.1.7",
                "absl-py",
                "cloudpickle",
            ),
            test_directory="tests",
            tests=("tests/nnx", "tests/linen"),
            ignore=(
                "tests/nnx/transforms_test.py",
                "tests/linen/linen_transforms_test.py",
                "tests/linen/linen_module_test.py",
            ),
            why=("the three largest test files (13,000 of the two directories' 29,000 lines)"),
        ),
        Library(
            name="equinox",
            version="0.13.8",
            # It declares jax>=0.4.38,!=0.7.0,!=0.7.1.
            floor="0.4.38",
            below_floor=("0.4.30", "0.4.36"),
            # Its runtime requirements, and its tests' (optax resolves, with the row's JAX
            # pinned, to a release that supports it; tqdm for the progress-meter tests).
            dependencies=(
                "jaxtyping>=0.2.20",
                "typing_extensions>=4.5.0",
                "wadler_lindig>=0.1.0",
                "optax",
                "tqdm",
            ),
            # Its sdist holds the package only.
            repository="https://github.com/patrick-kidger/equinox",
            deselect=("tests/test_while_loop.py::test_speed_buffer_while",),
            deselected_why=(
                "a timing assertion (a while loop's run time must grow linearly with its "
                "length), which a machine shared with other work fails or passes by chance, "
                "raw and ported alike (measured: failed once raw on newest, once ported on "
                "0.4.38)"
            ),
            test_directory="tests",
            test_files="test_*.py",
            # Equinox's own pytest configuration allows it: optax sets that option on import
            # on JAX 0.9.0 and newer, where JAX deprecates it.
            allowed_warnings=(
                "ignore:Setting `jax_pmap_shmap_merge` is deprecated:DeprecationWarning",
            ),
        ),
        Library(
            name="gpjax",
            version="1.0.0",
            # It declares jax>=0.5.0,<0.11.
            floor="0.5.0",
            below_floor=("0.4.30", "0.4.36"),
            # Its requirements (optax, numpyro, equinox, paramax and lineax resolve, with the
            # row's JAX pinned, to releases that support it) and what its tests import.
            dependencies=(
                "optax",
                "numpyro>=0.19.0",
                "jaxtyping>0.2.10",
                "tqdm>4.66.2",
                "beartype>0.16.1",
                "equinox>=0.11.0",
                "paramax>=0.0.5",
                "lineax>=0.0.6",
                "scipy>=1.14",
                "numpy>=2.0.0",
                "rich>=13.0.0",
                "hypothesis",
                "networkx",
            ),
            test_directory="tests",
            test_files="test_*.py",
            # The models' core: Gaussian processes, kernels, likelihoods, mean functions,
            # parameters and the linear algebra under them.
            tests=(
                "tests/test_gps.py",
                "tests/test_kernels",
                "tests/test_likelihoods.py",
                "tests/test_mean_functions.py",
                "tests/test_parameters.py",
                "tests/test_linalg.py",
                "tests/test_gaussian_distribution.py",
                "tests/test_dataset.py",
                "tests/test_integrators.py",
                "tests/test_scan.py",
                "tests/test_dtype.py",
            ),
        ),
        Library(
            name="diffrax",
            version="0.7.2",
            floor="0.4.38",
            below_floor=("0.4.30", "0.4.36"),
            # Its runtime requirements and its tests' (optax resolves, with the row's JAX
            # pinned, to a release that supports it).
            dependencies=(
                "jaxtyping>=0.2.24",
                "typing_extensions>=4.5.0",
                "wadler_lindig>=0.1.1",
                "optax",
                "scipy",
                "tqdm",
            ),
            # Equinox, Lineax and Optimistix (its requirements) declare jax>=0.4.38 too.
            carried=("equinox==0.13.8", "lineax==0.0.8", "optimistix==0.1.0"),
            # Its sdist holds the package only.
            repository="https://github.com/patrick-kidger/diffrax",
            test_directory="test",
            test_files="test_*.py",
            # Each test compiles whole solves (64-bit): the suite without its
            # convergence-order tests (integrate, detest, sde1, sde2, underdamped Langevin)
            # took over 15 minutes for one run on a shared 2-core machine (the newest JAX),
            # its events and step-size controllers over half of it. Terms, solvers, saving,
            # interpolation, the progress meter and vmap:
            tests=(
                "test/test_term.py",
                "test/test_solver.py",
                "test/test_saveat_solution.py",
                "test/test_local_interpolation.py",
                "test/test_interpolation.py",
                "test/test_step_to.py",
                "test/test_progress_meter.py",
                "test/test_vmap.py",
                "test/test_misc.py",
                "test/test_very_chord.py",
            ),
        ),
        Library(
            name="optimistix",
            version="0.1.0",
            # It declares jax>=0.4.38,!=0.7.0,!=0.7.1.
            floor="0.4.38",
            below_floor=("0.4.30", "0.4.36"),
            # Its runtime requirements and its tests' (optax resolves, with the row's JAX
            # pinned, to a release that supports it).
            dependencies=(
                "jaxtyping>=0.2.24",
                "typing_extensions>=4.5.0",
                "wadler_lindig>=0.1.0",
                "optax",
            ),
            # Equinox and Lineax (its requirements) and Diffrax (its tests') declare
            # jax>=0.4.38 too (Lineax 0.0.8 is the newest that admits it: 0.1.0 declares
            # jax>=0.6.1).
            carried=("equinox==0.13.8", "lineax==0.0.8", "diffrax==0.7.2"),
            # Its sdist holds the package only.
            repository="https://github.com/patrick-kidger/optimistix",
            test_directory="tests",
            test_files="test_*.py",
            # pytest deselects by prefix: `test_minimise` takes `test_minimise_jvp` along.
            deselect=(
                "tests/test_minimise.py::test_minimise",
                "tests/test_least_squares.py::test_least_squares",
                "tests/test_root_find.py::test_root_find_jvp",
                "tests/test_fixed_point.py::test_fixed_point_jvp",
            ),
            deselected_why=(
                "every solver on every problem of the test problem set, and the JVPs through "
                "them (640 of 811 tests): with them the newest JAX's XLA segfaulted compiling "
                "a minimiser's JVP (raw); without the minimisers' and least-squares solvers' "
                "JVPs one run still took 11 to 14 minutes on a shared 2-core machine, 10 of "
                "them in the rest of these (measured on the newest JAX). Each solver still "
                "runs: the forward minimisations, root finds and fixed points, best-so-far, "
                "the L-BFGS operator and the compatibility API"
            ),
            # A crash loses only its own file's results.
            per_file=True,
            # Its own pytest configuration allows it: optax sets that option on import on
            # JAX 0.9.0 and newer, where JAX deprecates it.
            allowed_warnings=(
                "ignore:Setting `jax_pmap_shmap_merge` is deprecated:DeprecationWarning",
            ),
        ),
    )
}
