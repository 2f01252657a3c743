package dlproflint.extract.kineto;

/**
 * Converts a Chrome-trace microsecond literal ({@code 1606910596297023}, {@code 4458676522690.655})
 * into exact nanoseconds. Parsing through {@code double} would lose the last digit of 16-digit values.
 */
final class MicrosText {
    private MicrosText() {
    }

    /** @throws NumberFormatException for text that is not a plain decimal number */
    static long toNanos(String text) {
        int len = text.length();
        if (len == 0) throw new NumberFormatException("empty number");
        int i = 0;
        boolean negative = false;
        if (text.charAt(0) == '-') {
            negative = true;
            i = 1;
        }
        long whole = 0;
        int digits = 0;
        for (; i < len; i++) {
            char c = text.charAt(i);
            if (c == '.' || c == 'e' || c == 'E') break;
            if (c < '0' || c > '9') throw new NumberFormatException("not a number: " + text);
            whole = Math.addExact(Math.multiplyExact(whole, 10), c - '0');
            digits++;
        }
        if (digits == 0) throw new NumberFormatException("not a number: " + text);
        long fracNs = 0;
        if (i < len && text.charAt(i) == '.') {
            i++;
            int scale = 100;
            boolean roundUp = false;
            for (int k = 0; i < len; i++, k++) {
                char c = text.charAt(i);
                if (c == 'e' || c == 'E') break;
                if (c < '0' || c > '9') throw new NumberFormatException("not a number: " + text);
                if (k < 3) {
                    fracNs += (long) (c - '0') * scale;
                    scale /= 10;
                } else if (k == 3) {
                    roundUp = c >= '5';
                }
            }
            if (roundUp) fracNs++;
        }
        if (i < len) {
            // exponent form (not written by Kineto, but valid JSON): fall back to BigDecimal
            return new java.math.BigDecimal(text).movePointRight(3)
                    .setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
        }
        long ns = Math.addExact(Math.multiplyExact(whole, 1000L), fracNs);
        return negative ? -ns : ns;
    }
}
