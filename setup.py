"""Build the optional C fast paths of the belief trackers (cardmind/belief/_blockdp.c for
Literature, cardmind/games/gofish/draws/_drawdp.c and _compact.c for the Go Fish draw engine
and its compact sum): three extensions.

The extensions are optional: when no C compiler is available the install still succeeds
and cardmind uses the pure-Python (numpy) reference implementations (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "cardmind.belief._blockdp",
            sources=["cardmind/belief/_blockdp.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "cardmind.games.gofish.draws._drawdp",
            sources=["cardmind/games/gofish/draws/_drawdp.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "cardmind.games.gofish.draws._compact",
            sources=["cardmind/games/gofish/draws/_compact.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
