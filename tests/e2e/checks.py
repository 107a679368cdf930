"""The pass/fail bookkeeping the e2e client scripts share: one line per check, a closing
`N passed, M failed` line, and an exit code."""

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


def finish():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)
