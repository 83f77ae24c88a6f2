package io.tlsadmit.rubis.web;

import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** Reads request parameters into checked values; anything missing or malformed becomes a 400 {@link Rejection}. */
public final class Params {

    /** Prices are DECIMAL(12,2); a billion leaves room for sums and keeps every value exact. */
    static final BigDecimal MAX_MONEY = new BigDecimal("1000000000");
    private static final int MAX_NUMBER_LENGTH = 20;

    private final HttpServletRequest request;

    public Params(HttpServletRequest request) {
        this.request = request;
    }

    /** A database id: a whole number from 1 up. */
    public int id(String name) {
        return intIn(name, 1, Integer.MAX_VALUE);
    }

    public int intIn(String name, int min, int max) {
        return parseInt(name, required(name), min, max);
    }

    public int optionalIntIn(String name, int fallback, int min, int max) {
        String value = present(name);
        return value == null ? fallback : parseInt(name, value, min, max);
    }

    /** Non-blank text of at most {@code maxLength} characters, stripped of surrounding white space. */
    public String text(String name, int maxLength) {
        String value = required(name).strip();
        if (value.isEmpty()) {
            throw Rejection.badRequest("You must provide a " + name + ".");
        }
        if (value.length() > maxLength) {
            throw Rejection.badRequest("The " + name + " is longer than " + maxLength + " characters.");
        }
        return value;
    }

    /** An amount of money from 0 to a billion, with at most two decimals. */
    public BigDecimal money(String name) {
        return parseMoney(name, required(name));
    }

    public BigDecimal optionalMoney(String name) {
        String value = present(name);
        return value == null ? BigDecimal.ZERO.setScale(2) : parseMoney(name, value);
    }

    private String required(String name) {
        String value = present(name);
        if (value == null) {
            throw Rejection.badRequest("You must provide a " + name + ".");
        }
        return value;
    }

    private String present(String name) {
        String value = request.getParameter(name);
        return value == null || value.isBlank() ? null : value;
    }

    private static int parseInt(String name, String value, int min, int max) {
        String trimmed = value.strip();
        long parsed;
        try {
            if (trimmed.length() > MAX_NUMBER_LENGTH) {
                throw new NumberFormatException();
            }
            parsed = Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
            throw Rejection.badRequest("The " + name + " must be a whole number.");
        }
        if (parsed < min || parsed > max) {
            throw Rejection.badRequest("The " + name + " must be between " + min + " and " + max + ".");
        }
        return (int) parsed;
    }

    private static BigDecimal parseMoney(String name, String value) {
        String trimmed = value.strip();
        BigDecimal amount;
        try {
            if (trimmed.length() > MAX_NUMBER_LENGTH) {
                throw new NumberFormatException();
            }
            amount = new BigDecimal(trimmed);
        } catch (NumberFormatException e) {
            throw Rejection.badRequest("The " + name + " must be an amount like 12.50.");
        }
        if (amount.signum() < 0 || amount.compareTo(MAX_MONEY) > 0) {
            throw Rejection.badRequest("The " + name + " must be between 0 and " + MAX_MONEY.toPlainString() + ".");
        }
        if (amount.stripTrailingZeros().scale() > 2) {
            throw Rejection.badRequest("The " + name + " has more than two decimals.");
        }
        return amount.setScale(2, RoundingMode.UNNECESSARY);
    }
}
