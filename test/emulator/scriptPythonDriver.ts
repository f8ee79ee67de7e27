// The emulator's Python driver: runs a script's code with its inputs bound and prints the outputs as JSON
// (marked) or the error's line. A `graphics` output (a matplotlib figure, or PNG bytes) is answered as the
// PNG's bytes in base64 text: what the call route gives for a plot here (see test/emulator/README.md).

/** Runs the script's code with its inputs bound; prints the outputs as JSON (marked) or the error's line. */
export const PYTHON_DRIVER = `
import base64, io, json, sys, traceback, contextlib
job = json.load(sys.stdin)
import pandas as pd
ns = {"__name__": "__main__"}
ns.update(job["scalars"])
for name, text in job["frames"].items():
    ns[name] = pd.read_csv(io.StringIO(text)) if text.strip() else pd.DataFrame()
def graphic(value):
    if hasattr(value, "savefig"):
        buffer = io.BytesIO()
        value.savefig(buffer, format="png")
        value = buffer.getvalue()
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value
def plain(value, kind):
    if kind == "graphics":
        return graphic(value)
    if kind == "dataframe" and isinstance(value, pd.DataFrame):
        return value.to_csv(index=False)
    if kind == "dataframe" and isinstance(value, pd.Series):
        return value.to_frame().to_csv(index=False)
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        try:
            return value.item()
        except Exception:
            pass
    if hasattr(value, "tolist"):
        return value.tolist()
    return value
captured = io.StringIO()
try:
    with contextlib.redirect_stdout(captured):
        exec(compile(job["code"], job["file"], "exec"), ns)
except BaseException as e:
    line = None
    for frame in traceback.extract_tb(e.__traceback__):
        if frame.filename == job["file"]:
            line = frame.lineno
    if isinstance(e, SyntaxError) and e.filename == job["file"]:
        line = e.lineno
    print("\\u0000DATAGROK" + json.dumps({"error": type(e).__name__ + ": " + str(e), "line": line}))
    sys.exit(0)
missing = [o["name"] for o in job["outputs"] if o["name"] not in ns]
if missing:
    print("\\u0000DATAGROK" + json.dumps({"error": "the script did not set its output " + ", ".join(missing), "line": None}))
    sys.exit(0)
print("\\u0000DATAGROK" + json.dumps({"values": {o["name"]: plain(ns[o["name"]], o["type"]) for o in job["outputs"]}}, default=str))
`;
