"""The progress bars of long batches (``progress=True``): tqdm's, an optional dependency."""


class _Silent:
    """What a batch updates when no bar was asked for."""

    def update(self, n=1):
        pass

    def close(self):
        pass


def bar(enabled, total, desc):
    """A tqdm bar over ``total`` rollouts when ``enabled``, else one that shows nothing."""
    if not enabled:
        return _Silent()
    try:
        from tqdm.auto import tqdm
    except ImportError as e:
        raise ImportError("progress=True needs tqdm: pip install tqdm") from e
    return tqdm(total=total, desc=desc, unit="rollout")


def chunks(nroll, size):
    """``(start, stop)`` of consecutive runs of at most ``size`` rollouts covering ``nroll``."""
    size = max(1, int(size))
    return [(i, min(i + size, nroll)) for i in range(0, nroll, size)]
