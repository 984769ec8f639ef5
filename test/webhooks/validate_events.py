"""Verifies captured webhook deliveries with Polar's Python client, run by every-event.test.ts.

Reads {"secret": ..., "file": ...} on stdin; the file holds deliveries as [{"body", "headers"}].
Each is checked by polar_sdk.webhooks.validate_event with the endpoint's secret (the signature,
then the payload parsed into the client's pydantic model of its type). Prints one JSON line: for
each delivery, the type it parsed as, or the error that refused it.
"""

import json
import sys

from polar_sdk.webhooks import validate_event

ctx = json.load(sys.stdin)
with open(ctx["file"], encoding="utf-8") as f:
    deliveries = json.load(f)

results = []
for delivery in deliveries:
    try:
        event = validate_event(delivery["body"], delivery["headers"], ctx["secret"])
        results.append({"type": event.TYPE, "model": type(event).__name__})
    except Exception as err:  # noqa: BLE001 - each refusal is reported
        results.append({"error": type(err).__name__, "detail": str(err)[:2000]})

print(json.dumps(results))
