package io.tlsadmit.rubis.web;

/** Escaping for HTML text and attribute values. */
public final class Html {

    private Html() {
    }

    /** Escapes the five characters that can end text or a quoted attribute; safe in both places. */
    public static String escape(String value) {
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            String replacement = switch (value.charAt(i)) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (replacement != null) {
                if (out == null) {
                    out = new StringBuilder(value.length() + 16).append(value, 0, i);
                }
                out.append(replacement);
            } else if (out != null) {
                out.append(value.charAt(i));
            }
        }
        return out == null ? value : out.toString();
    }
}
