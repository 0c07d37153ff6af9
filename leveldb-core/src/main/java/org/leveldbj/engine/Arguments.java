package org.leveldbj.engine;

/**
 * Argument checks of the engine's public methods. A {@code null} where a value is required is
 * an {@link IllegalArgumentException} whose message names the argument, {@code "The key argument
 * cannot be null"}: the text and type leveldbjni and the API's option classes use, so the whole
 * API rejects bad arguments one way.
 *
 * <p>Thread safety: stateless.
 */
final class Arguments {
    private Arguments() {
    }

    /**
     * Rejects {@code null}.
     *
     * @param value the argument
     * @param name its name, as in the method's signature
     * @param <T> its type
     * @return {@code value}
     * @throws IllegalArgumentException if {@code value} is {@code null}
     */
    static <T> T checkNotNull(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("The " + name + " argument cannot be null");
        }
        return value;
    }
}
