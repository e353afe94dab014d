"""Many battles: seeds via ``SeedSequence.spawn``, executors (in-process, process pool, Dask),
statistics with intervals, and a SQLite store of every run."""
