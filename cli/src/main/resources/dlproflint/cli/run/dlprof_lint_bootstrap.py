"""dlprof-lint run: a training script under the PyTorch profiler, unedited.

Started by ``dlprof-lint run`` with the user's interpreter as

    python dlprof_lint_bootstrap.py CONFIG.json SCRIPT [ARGS...]      (or  -m MODULE [ARGS...])

it runs SCRIPT as ``__main__`` (as ``python SCRIPT ARGS`` would), marks a training step each time the
step function returns (by default ``torch.optim.Optimizer.step`` of the first optimizer that steps;
``step_fn`` names another), lets ``warmup`` steps run unrecorded, records the next ``steps`` steps and
stops the capture, and lets the script run on to its end. What happened is written to the status file
the configuration names (JSON), which dlprof-lint reads after the script exits:

    {"state": "captured" | "partial" | "no-steps" | "too-few-steps" | "error", "steps": <steps seen>,
     "recorded": [first, last], "trace": <path>, "torch": <version>, "kineto": <bool>, "hook": <what marked steps>,
     "message": <why, when not captured>}

Two capture modes:
  * "torch": ``torch.profiler.profile`` with a schedule (wait, warm-up, active); the trace is exported
    with ``export_chrome_trace`` (a Kineto trace, or the autograd profiler's legacy trace where PyTorch
    was built without Kineto) to a temporary name and renamed when complete;
  * "nsys": under ``nsys profile --capture-range=cudaProfilerApi``: ``cudaProfilerStart`` before the first
    recorded step, ``emit_nvtx`` and one ``ProfilerStep#N`` NVTX range per recorded step,
    ``cudaProfilerStop`` after the last one.

The file is shipped in dlprof-lint's jar and release archive and needs nothing but Python 3.7+ and PyTorch.
"""
import functools
import json
import os
import runpy
import sys
import threading
import time

_STATUS_KEYS = ("state", "steps", "recorded", "trace", "torch", "kineto", "hook", "message", "mode")


class Capture(object):
    """Counts steps and drives the profiler: nothing, then warm-up, then ``steps`` recorded steps, then nothing."""

    def __init__(self, config):
        self.config = config
        self.mode = config.get("mode", "torch")
        self.warmup = int(config.get("warmup", 5))
        self.active = int(config.get("steps", 5))
        self.trace = config.get("trace")
        self.status_path = config["status"]
        self.capture = set(config.get("capture", ["shapes", "stack", "memory", "modules"]))
        self.steps = 0
        self.done = False
        self.ending = False  # the script ended while recording: the step still open holds no step
        self.profiler = None
        self.nvtx = None
        self.nvtx_open = False
        self.lock = threading.RLock()
        self.status = {"state": "no-steps", "steps": 0, "recorded": None, "trace": None, "hook": None,
                       "mode": self.mode, "message": None}
        try:
            import torch
            self.status["torch"] = torch.__version__
            self.status["kineto"] = bool(getattr(torch.autograd, "kineto_available", lambda: False)())
        except Exception as e:  # no torch: the script may still run; nothing can be captured
            self.status["torch"] = None
            self.status["message"] = "PyTorch cannot be imported by this interpreter (%s: %s)" % (type(e).__name__, e)

    # ------------------------------------------------------------------------------------------ torch mode

    def start(self):
        """Before the script: the profiler waits for its first recorded step (torch mode)."""
        if self.mode != "torch" or self.status.get("torch") is None:
            return
        try:
            self._start()
        except Exception as e:
            self._failed("the profiler could not start: %s: %s" % (type(e).__name__, e))

    def _start(self):
        import torch
        from torch.profiler import profile, schedule, ProfilerActivity
        activities = [ProfilerActivity.CPU]
        if torch.cuda.is_available() and ProfilerActivity.CUDA in torch.profiler.supported_activities():
            activities.append(ProfilerActivity.CUDA)
        # the last unrecorded step runs with the profiler on (its start-up cost stays out of the recorded steps)
        wait = max(0, self.warmup - 1)
        warm = 1 if self.warmup >= 1 else 0
        kwargs = dict(activities=activities,
                      schedule=schedule(wait=wait, warmup=warm, active=self.active, repeat=1),
                      on_trace_ready=self._export,
                      record_shapes="shapes" in self.capture,
                      profile_memory="memory" in self.capture,
                      with_stack="stack" in self.capture)
        if "modules" in self.capture:
            kwargs["with_modules"] = True
        try:
            self.profiler = profile(**kwargs)
        except TypeError:  # a PyTorch without with_modules
            kwargs.pop("with_modules", None)
            self.profiler = profile(**kwargs)
        self.profiler.start()

    def _export(self, prof):
        tmp = _temporary(self.trace)
        prof.export_chrome_trace(tmp)
        if self.ending:
            _drop_open_step(tmp)
        os.replace(tmp, self.trace)
        first = self.warmup + 1
        self._captured("captured", first, first + self.active - 1)

    def _captured(self, state, first, last):
        self.status.update(state=state, recorded=[first, last], trace=self.trace, message=None)
        self.done = True
        self.write_status()

    # ------------------------------------------------------------------------------------------- nsys mode

    def _nsys_step(self):
        import torch
        n = self.steps  # steps completed so far
        recording_from = self.warmup + 1
        last = self.warmup + self.active
        if self.nvtx_open:
            torch.cuda.nvtx.range_pop()
            self.nvtx_open = False
        if n == self.warmup:  # the next step is the first recorded one
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
            self.nvtx = torch.autograd.profiler.emit_nvtx(record_shapes="shapes" in self.capture)
            self.nvtx.__enter__()
        if recording_from <= n + 1 <= last:
            torch.cuda.nvtx.range_push("ProfilerStep#%d" % (n + 1))
            self.nvtx_open = True
        if n == last:
            self._nsys_stop()
            self._captured("captured", recording_from, last)

    def _nsys_stop(self):
        import torch
        if self.nvtx_open:
            torch.cuda.nvtx.range_pop()
            self.nvtx_open = False
        if self.nvtx is not None:
            self.nvtx.__exit__(None, None, None)
            self.nvtx = None
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()

    # ------------------------------------------------------------------------------------------------ both

    def on_step(self, hook):
        """A step ended (its step function returned)."""
        with self.lock:
            if self.status["hook"] is None:
                self.status["hook"] = hook
            self.steps += 1
            self.status["steps"] = self.steps
            if self.done:
                return
            try:
                if self.mode == "nsys":
                    self._nsys_step()
                elif self.profiler is not None:
                    self.profiler.step()
                    if self.done:  # the schedule ran out: the profiler stops, the script runs on
                        self._stop_profiler()
            except Exception as e:  # the capture failed: say why, and never fail the user's script for it
                self._failed("the capture failed at step %d: %s: %s" % (self.steps, type(e).__name__, e))

    def _failed(self, message):
        self.done = True
        self.status.update(state="error", message=message, trace=None, recorded=None)
        self._stop_profiler()
        self.write_status()

    def _stop_profiler(self):
        prof, self.profiler = self.profiler, None
        if prof is not None:
            try:
                prof.stop()
            except Exception:
                pass

    def finish(self, error=None):
        """The script ended (normally, by sys.exit or by an exception): close what is still open."""
        with self.lock:
            if not self.done:
                recorded = self.steps - self.warmup
                if self.status.get("torch") is None:
                    self.status["state"] = "error"
                elif self.steps == 0:
                    self.status["state"] = "no-steps"
                elif recorded <= 0:
                    self.status["state"] = "too-few-steps"
                    self.status["message"] = ("the script ended after %d steps, before the %d warm-up steps were over"
                                              % (self.steps, self.warmup))
                else:
                    # the run ended while recording: keep what was recorded
                    try:
                        if self.mode == "nsys":
                            self._nsys_stop()
                            self._captured("partial", self.warmup + 1, self.steps)
                        elif self.profiler is not None:
                            prof, self.profiler = self.profiler, None
                            self.ending = True
                            prof.stop()  # torch exports a schedule's active steps when it stops in them
                            if not self.done:
                                self._export(prof)
                            self._captured("partial", self.warmup + 1, self.steps)
                    except Exception as e:
                        self.status["state"] = "error"
                        self.status["message"] = "stopping the capture failed: %s: %s" % (type(e).__name__, e)
            self._stop_profiler()
            if error is not None and self.status.get("message") is None and not self.done:
                self.status["message"] = error
            self.write_status()

    def write_status(self):
        tmp = _temporary(self.status_path)
        with open(tmp, "w") as f:
            json.dump({k: self.status.get(k) for k in _STATUS_KEYS}, f)
        os.replace(tmp, self.status_path)


def _drop_open_step(path):
    """
    Removes the last ProfilerStep#N range of a trace cut short: torch opens a step range at each step and closes it at
    the next, so the range open when the script ended covers the script's tail, not a step.
    """
    import gzip
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        doc = json.load(f)
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    steps = [e for e in events if isinstance(e, dict) and str(e.get("name", "")).startswith("ProfilerStep#")]
    if not steps:
        return
    last = max(steps, key=lambda e: float(e.get("ts", 0)))["name"]
    kept = [e for e in events if not (isinstance(e, dict) and e.get("name") == last)]
    if isinstance(doc, list):
        doc = kept
    else:
        doc["traceEvents"] = kept
    with opener(path, "wt") as f:
        json.dump(doc, f)


def _temporary(path):
    return "%s.%d.tmp%s" % (path, os.getpid(), ".gz" if path.endswith(".gz") else "")


# ------------------------------------------------------------------------------------------------- step hooks

def hook_optimizer(capture):
    """
    Marks a step when ``step()`` of the first optimizer that steps returns. The wrapper goes around the class's
    ``step`` after ``Optimizer.__init__`` (so it is outside PyTorch's own profiling wrapper), once per class;
    an optimizer stepping inside another's step (ZeroRedundancyOptimizer) counts once, and a second optimizer
    (a GAN's) does not count again.
    """
    import torch.optim
    base = torch.optim.Optimizer
    original_init = base.__init__
    local = threading.local()
    clock = []  # the optimizer whose steps are the step clock

    def wrap(step):
        @functools.wraps(step)
        def stepped(self, *args, **kwargs):
            depth = getattr(local, "depth", 0)
            local.depth = depth + 1
            try:
                return step(self, *args, **kwargs)
            finally:
                local.depth = depth
                if depth == 0:
                    if not clock:
                        clock.append(id(self))
                    if clock[0] == id(self):
                        capture.on_step("optimizer.step() of %s" % type(self).__name__)
        stepped._dlprof_lint_step = True
        stepped.hooked = True  # PyTorch's own profiling wrapper must not wrap ours again
        return stepped

    @functools.wraps(original_init)
    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        cls = type(self)
        step = getattr(cls, "step", None)
        if step is not None and not getattr(step, "_dlprof_lint_step", False):
            cls.step = wrap(step)

    base.__init__ = init


def hook_function(spec, capture):
    """
    Marks a step when the function ``[module:]qualified.name`` returns (module: ``__main__``, the script, by
    default). The function may not exist yet (the script defines it), so a profile function watches calls until
    the first one, then puts a wrapper in its place and stops watching; that first call counts when it returns.
    """
    module, _, qualname = spec.rpartition(":")
    module = module or "__main__"
    parts = qualname.split(".")
    name = parts[-1]
    label = "%s()" % spec
    state = {"frame": None}

    def resolve(frame):
        owner = frame.f_globals
        for p in parts[:-1]:
            owner = owner.get(p) if isinstance(owner, dict) else getattr(owner, p, None)
            if owner is None:
                return None, None
        fn = owner.get(name) if isinstance(owner, dict) else owner.__dict__.get(name)
        code = getattr(getattr(fn, "__func__", fn), "__code__", None)
        return (owner, fn) if code is frame.f_code else (None, None)

    def install(owner, fn):
        @functools.wraps(fn)
        def stepped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            finally:
                capture.on_step(label)
        if isinstance(owner, dict):
            owner[name] = stepped
        else:
            setattr(owner, name, stepped)

    def watch(frame, event, arg):
        if state["frame"] is not None:
            if event == "return" and frame is state["frame"]:
                state["frame"] = None
                sys.setprofile(None)
                threading.setprofile(None)
                capture.on_step(label)
            return
        if event != "call" or frame.f_code.co_name != name or frame.f_globals.get("__name__") != module:
            return
        owner, fn = resolve(frame)
        if owner is None:
            return
        install(owner, fn)
        state["frame"] = frame

    sys.setprofile(watch)
    threading.setprofile(watch)


# ------------------------------------------------------------------------------------------------------- main

def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: dlprof_lint_bootstrap.py CONFIG.json SCRIPT [ARGS...] | -m MODULE [ARGS...]\n")
        return 2
    with open(argv[1]) as f:
        config = json.load(f)
    target = argv[2:]
    capture = Capture(config)
    capture.write_status()
    if capture.status.get("torch") is not None:
        if config.get("step_fn"):
            hook_function(config["step_fn"], capture)
        else:
            hook_optimizer(capture)
        capture.start()
    error = None
    try:
        if target[0] == "-m":
            if len(target) < 2:
                sys.stderr.write("dlprof_lint_bootstrap.py: -m needs a module name\n")
                return 2
            sys.argv = [target[1]] + target[2:]
            sys.path[0] = os.getcwd()  # as python -m puts it
            runpy.run_module(target[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(target)
            sys.path[0] = os.path.dirname(os.path.abspath(target[0]))
            runpy.run_path(target[0], run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            error = "the script called sys.exit(%r)" % (e.code,)
        capture.finish(error)
        raise
    except BaseException as e:
        capture.finish("the script raised %s: %s" % (type(e).__name__, e))
        raise
    capture.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
