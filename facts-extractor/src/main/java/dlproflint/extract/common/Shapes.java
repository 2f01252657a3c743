package dlproflint.extract.common;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Input shapes printed the way DLProf's iteration report prints them: convolutions as
 * {@code <N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>; <6>}, linear layers as
 * {@code <N:32, K:400>; <M:120, K:400>; <120>}, anything else as {@code <32, 6, 30, 30>}.
 */
public final class Shapes {
    private Shapes() {
    }

    public static String format(String opType, List<List<Long>> shapes) {
        if (shapes == null || shapes.isEmpty()) return null;
        String t = opType == null ? "" : opType.toLowerCase(java.util.Locale.ROOT);
        if (t.equals("conv2d") && shapes.size() >= 2 && shapes.get(0).size() == 4 && shapes.get(1).size() == 4) {
            StringBuilder sb = new StringBuilder();
            sb.append(labeled(shapes.get(0), "N", "C", "H", "W")).append("; ")
                    .append(labeled(shapes.get(1), "K", "C", "R", "S"));
            for (int i = 2; i < shapes.size(); i++) sb.append("; ").append(plain(shapes.get(i)));
            return sb.toString();
        }
        if (t.equals("linear") && shapes.size() >= 2 && shapes.get(0).size() == 2 && shapes.get(1).size() == 2) {
            StringBuilder sb = new StringBuilder();
            sb.append(labeled(shapes.get(0), "N", "K")).append("; ").append(labeled(shapes.get(1), "M", "K"));
            for (int i = 2; i < shapes.size(); i++) sb.append("; ").append(plain(shapes.get(i)));
            return sb.toString();
        }
        return shapes.stream().map(Shapes::plain).collect(Collectors.joining("; "));
    }

    private static String labeled(List<Long> dims, String... labels) {
        StringBuilder sb = new StringBuilder("<");
        for (int i = 0; i < dims.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(labels[i]).append(':').append(dims.get(i));
        }
        return sb.append('>').toString();
    }

    private static String plain(List<Long> dims) {
        return dims.stream().map(String::valueOf).collect(Collectors.joining(", ", "<", ">"));
    }
}
