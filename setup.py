"""Build the optional C fast path of the belief tracker (cardmind/belief/_blockdp.c).

The extension is optional: when no C compiler is available the install still succeeds
and cardmind uses the pure-Python reference implementation (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "cardmind.belief._blockdp",
            sources=["cardmind/belief/_blockdp.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
