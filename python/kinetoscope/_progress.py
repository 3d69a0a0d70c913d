"""Progress for long work: a callable(stage, done, total), or a tqdm bar when tqdm is installed.

``progress=True`` (the default) shows a tqdm bar (tqdm.auto: a widget in a notebook)
for work that lasts more than half a second, and nothing when tqdm is absent;
``False`` or ``None`` shows nothing; a callable gets every report.
"""
import contextlib


class _TqdmBar:
    def __init__(self, tqdm, description):
        self._tqdm = tqdm
        self._description = description
        self._bar = None
        self._stage = None

    def __call__(self, stage, done, total):
        if self._bar is None or stage != self._stage:
            self.close()
            self._stage = stage
            self._bar = self._tqdm(total=total or None, desc=f"{self._description}: {stage}", delay=0.5,
                                   leave=False, unit="B" if total > 1000 else "it", unit_scale=True)
        self._bar.update(done - self._bar.n)

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


@contextlib.contextmanager
def reporter(progress, description):
    """The callback the native call gets for `progress` (see the module's text)."""
    if progress is None or progress is False:
        yield None
        return
    if callable(progress):
        yield progress
        return
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    if tqdm is None:
        yield None
        return
    bar = _TqdmBar(tqdm, description)
    try:
        yield bar
    finally:
        bar.close()
