package io.concurrencylab.aggregation;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;

/** The {@code {id}} of an aggregation: a positive number that fits a long, or a 400. */
public final class UserIds {

    private UserIds() {
    }

    public static long parse(String id) {
        long parsed;
        try {
            parsed = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw invalid(id);
        }
        if (parsed <= 0) {
            throw invalid(id);
        }
        return parsed;
    }

    private static ServiceException invalid(String id) {
        String shown = id.length() > 40 ? id.substring(0, 40) + "..." : id;
        return new ServiceException(ErrorCode.BAD_REQUEST, "A user id is a positive whole number, not '" + shown + "'");
    }
}
