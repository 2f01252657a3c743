package dlproflint.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which frames of a recorded call stack are the model's own code, decided once for every reader, rule and
 * report. A finding points at the innermost <em>user</em> frame: a Python source line ({@code file} with a
 * line number) outside the libraries a user does not edit.
 *
 * <p>Library frames are recognised from the path alone, because the formats spell paths differently:
 * absolute paths in {@code site-packages}/{@code dist-packages}/{@code lib/pythonX.Y} or a {@code torch}
 * folder (DLProf markers, Kineto {@code Call stack}); paths that Kineto's Python tracer has already made
 * relative to {@code sys.path}, whose first component is then a standard-library module or a well-known
 * framework ({@code torch/nn/modules/linear.py}, {@code transformers/...}, {@code threading.py}); and pseudo
 * files ({@code <frozen os>}, {@code <string>}, {@code <built-in method ...>}). Native frames (a shared
 * library or executable with no line, as in nsys CUDA backtraces) are never user source lines.
 */
public final class StackFrames {
    /** Frames kept per op or call site: the user frame and a few of its callers. */
    public static final int MAX_FRAMES = 4;

    /** Python's standard library (sys.stdlib_module_names of 3.12, without "test" and "this", which user code uses too). */
    private static final Set<String> STDLIB = Set.of(("abc aifc antigravity argparse array ast asynchat asyncio asyncore "
            + "atexit audioop base64 bdb binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs "
            + "codeop collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt csv "
            + "ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum "
            + "errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt getpass "
            + "gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib inspect io "
            + "ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes "
            + "mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator "
            + "optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath "
            + "pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline "
            + "reprlib resource rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site smtpd smtplib "
            + "sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string "
            + "stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios "
            + "textwrap threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle "
            + "turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser winreg "
            + "winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo").split(" "));

    /**
     * Frameworks and their helpers that appear in training stacks (seen in the corpus traces: torch, transformers,
     * PIL, numpy, triton, tqdm, flashinfer) and their usual companions. A project that develops one of them and
     * wants its frames kept still gets them through absolute paths outside site-packages.
     */
    private static final Set<String> FRAMEWORKS = Set.of("torch", "torchvision", "torchaudio", "torchtext", "functorch",
            "torchdynamo", "triton", "numpy", "PIL", "tqdm", "transformers", "accelerate", "deepspeed", "apex",
            "flashinfer", "flash_attn", "xformers", "lightning", "pytorch_lightning", "timm", "tensorflow", "keras",
            "jax", "flax", "nvtx", "nvidia_dlprof_pytorch_nvtx", "typing_extensions", "six", "google", "datasets",
            "safetensors", "huggingface_hub", "tokenizers", "scipy", "pandas", "sklearn");

    private StackFrames() {
    }

    /** A Python source location: a real file and a line (not {@code <frozen ...>}, a built-in or a native frame). */
    public static boolean isSourceLine(StackFrame f) {
        if (f == null || f.file() == null || f.file().isBlank() || f.line() <= 0) return false;
        String file = f.file().strip();
        return !file.startsWith("<") && !file.startsWith("[");
    }

    /** A frame in code the user does not edit (see the class comment). */
    public static boolean isLibrary(StackFrame f) {
        return f == null || isLibraryFile(f.file());
    }

    public static boolean isLibraryFile(String file) {
        if (file == null || file.isBlank()) return true;
        String p = file.strip().replace('\\', '/');
        if (p.startsWith("<") || p.startsWith("[") || p.startsWith("nn.Module:")) return true;
        String lower = p.toLowerCase(Locale.ROOT);
        if (lower.contains("/site-packages/") || lower.contains("/dist-packages/") || lower.matches(".*/lib/python[0-9.]*/.*")
                || lower.contains("/torch/") || lower.contains("/tensorflow/")) {
            return true;
        }
        if (p.startsWith("/") || p.matches("^[A-Za-z]:/.*")) return false;
        String first = p.startsWith("./") ? p.substring(2) : p;
        int slash = first.indexOf('/');
        String top = slash < 0 ? first : first.substring(0, slash);
        if (slash < 0 && top.endsWith(".py")) top = top.substring(0, top.length() - 3);
        return STDLIB.contains(top) || FRAMEWORKS.contains(top);
    }

    /** The model's own line: a source line outside the libraries. */
    public static boolean isUserFrame(StackFrame f) {
        return isSourceLine(f) && !isLibrary(f);
    }

    /** The innermost user frame of an innermost-first stack, or null. */
    public static StackFrame firstUser(List<StackFrame> innermostFirst) {
        if (innermostFirst == null) return null;
        for (StackFrame f : innermostFirst) if (isUserFrame(f)) return f;
        return null;
    }

    /**
     * What a reader keeps of a stack recorded innermost first: from the innermost user frame on, at most
     * {@link #MAX_FRAMES} frames (the user frame, then its callers). A stack without a user frame keeps its
     * innermost frames, so a report can say the stack held library frames only.
     */
    public static List<StackFrame> keepInnermostFirst(List<StackFrame> innermostFirst) {
        if (innermostFirst == null || innermostFirst.isEmpty()) return List.of();
        int from = 0;
        while (from < innermostFirst.size() && !isUserFrame(innermostFirst.get(from))) from++;
        if (from == innermostFirst.size()) from = 0;
        List<StackFrame> kept = new ArrayList<>(MAX_FRAMES);
        for (int i = from; i < innermostFirst.size() && kept.size() < MAX_FRAMES; i++) kept.add(innermostFirst.get(i));
        return List.copyOf(kept);
    }

    /**
     * A whole stack recorded outermost first (DLProf markers and databases list the entry point first), innermost
     * first. Nothing is cut: DLProf's own reports print the stack as recorded (bounded only against hostile input,
     * at {@link #MAX_RECORDED} frames).
     */
    public static List<StackFrame> innermostFirst(List<StackFrame> outermostFirst) {
        if (outermostFirst == null || outermostFirst.isEmpty()) return List.of();
        List<StackFrame> reversed = new ArrayList<>(outermostFirst.subList(0, Math.min(MAX_RECORDED, outermostFirst.size())));
        java.util.Collections.reverse(reversed);
        return List.copyOf(reversed);
    }

    /** Most frames kept of a stack a profile records whole (DLProf's). */
    public static final int MAX_RECORDED = 64;
}
