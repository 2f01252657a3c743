package dlproflint.cli.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Suppression globs: the documented semantics, agreement with the equivalent regex, and linear time. */
class GlobTest {
    @Test
    void starsAndQuestionMarks() {
        assertTrue(Glob.matches("*", ""));
        assertTrue(Glob.matches("*", "op:anything/at:all"));
        assertTrue(Glob.matches("dlprof/*", "dlprof/amp-not-used"));
        assertFalse(Glob.matches("dlprof/*", "nsys/sync-api"));
        assertTrue(Glob.matches("op:*conv*bn*relu*", "op:model/conv1/bn/relu_"));
        assertFalse(Glob.matches("op:*conv*bn*relu*", "op:model/relu/bn/conv"));
        assertTrue(Glob.matches("kernel:volta_?gemm*", "kernel:volta_sgemm_128x64_nn"));
        assertFalse(Glob.matches("kernel:volta_?gemm*", "kernel:volta_gemm"));
        assertTrue(Glob.matches("a*a", "aa"));
        assertFalse(Glob.matches("a*a", "a"), "the head and the tail may not overlap");
        assertTrue(Glob.matches("**", "x"));
        assertTrue(Glob.matches("op:EMB_1", "op:EMB_1"));
        assertFalse(Glob.matches("op:EMB_1", "op:EMB_12"));
        assertTrue(Glob.matches("[x]+(y)", "[x]+(y)"), "regex characters are literal");
    }

    /** Random patterns and texts over a small alphabet agree with the regex the suppressions used before. */
    @Test
    void agreesWithTheRegexDefinition() {
        Random rnd = new Random(17);
        String alphabet = "ab*?";
        for (int i = 0; i < 20_000; i++) {
            String glob = random(rnd, alphabet, rnd.nextInt(7));
            String text = random(rnd, "ab", rnd.nextInt(9));
            assertEquals(regex(glob).matcher(text).matches(), Glob.matches(glob, text), glob + " vs " + text);
        }
    }

    /**
     * Issue 17: {@code op:*conv*bn*relu*} against a 200 KB op name took 88 s with the regex. Counted, not
     * timed: every character read goes through the counting text, and the count stays within a small
     * multiple of (name length × pattern length). The timeout only guards against a hang.
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHugeNameIsMatchedInLinearTime() {
        int n = 200_000;
        for (String name : List.of("op:" + "conv".repeat(n / 4), "op:" + "a".repeat(n), "op:" + "cbr".repeat(n / 3) + "conv")) {
            for (String glob : List.of("op:*conv*bn*relu*", "op:*a*a*a*a*b", "*?*?*?*x", "op:*conv*conv*conv*")) {
                Counting text = new Counting(name);
                boolean expected = regexIsCheap(glob) ? regex(glob).matcher(name).matches() : Glob.matches(glob, name);
                assertEquals(expected, Glob.matches(glob, text));
                long bound = 4L * name.length() * glob.length();
                assertTrue(text.reads <= bound, glob + " read " + text.reads + " characters of a " + name.length()
                        + "-character name (bound " + bound + ")");
            }
        }
    }

    /** The same through the suppression itself (the regex version exceeded this guard by minutes). */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSuppressionChecksAHugeOpNameQuickly() {
        Suppression s = new Suppression("dlprof/*", "op:*conv*bn*relu*", "fused", null);
        String name = "op:" + "conv_bn_".repeat(25_000) + "x";
        assertFalse(s.matches("dlprof/bad-tensor-shape", name));
        assertTrue(s.matches("dlprof/bad-tensor-shape", name + "relu"));
    }

    private static boolean regexIsCheap(String glob) {
        return glob.chars().filter(c -> c == '*').count() <= 1;
    }

    private static Pattern regex(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    private static String random(Random rnd, String alphabet, int len) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < len; i++) b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        return b.toString();
    }

    /** A text that counts how many characters the matcher reads. */
    private static final class Counting implements CharSequence {
        private final String s;
        long reads;

        Counting(String s) {
            this.s = s;
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return s.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            throw new UnsupportedOperationException("the matcher must not copy the text");
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
