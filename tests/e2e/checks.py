"""The pass/fail bookkeeping the e2e client scripts share: one line per check, a failed check for
a part that raised, a closing `N passed, M failed` line, and an exit code."""

import sys

passed = 0
failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {what}")
    else:
        failed += 1
        print(f"FAIL {what}")


async def attempt(what, run):
    """Awaits `run`; an exception is a failed check, `what failed: ...`, and the caller goes on."""
    try:
        await run
    except Exception as e:  # noqa: BLE001 - any failure is reported, then the next part runs
        check(False, f"{what} failed: {describe(e)}")


def describe(error):
    """An exception, with the ones inside an exception group (anyio's task groups raise those)."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in error.exceptions)
    return f"{type(error).__name__}: {error}"


def finish():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)
