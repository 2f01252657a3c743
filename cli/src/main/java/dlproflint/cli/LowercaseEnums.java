package dlproflint.cli;

import picocli.CommandLine;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/** Enum options written and completed in lower case ({@code --fail-on warning}), with a plain error message. */
final class LowercaseEnums {
    private LowercaseEnums() {
    }

    static <E extends Enum<E>> E parse(Class<E> type, String value) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value.trim())) return e;
        }
        throw new CommandLine.TypeConversionException("expected " + list(type) + ", not '" + value + "'");
    }

    static <E extends Enum<E>> String list(Class<E> type) {
        String[] names = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toArray(String[]::new);
        return String.join(", ", Arrays.copyOf(names, names.length - 1)) + " or " + names[names.length - 1];
    }

    static final class FailOnConverter implements CommandLine.ITypeConverter<FailOn> {
        @Override
        public FailOn convert(String value) {
            return parse(FailOn.class, value);
        }
    }

    static final class ColorConverter implements CommandLine.ITypeConverter<ColorMode> {
        @Override
        public ColorMode convert(String value) {
            return parse(ColorMode.class, value);
        }
    }

    static final class FailOnValues implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(FailOn.values()).map(v -> v.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    static final class ColorValues implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(ColorMode.values()).map(v -> v.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }
}
