package io.concurrencylab.aggregation;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import java.util.regex.Pattern;

/**
 * The {@code {id}} of an aggregation: a positive number that fits a long, in plain decimal (ASCII digits, no sign, no
 * leading zero), or a 400. {@link Long#parseLong} alone would also take "+42", "042" and any script's digits
 * (Arabic-Indic "٤٢"): one user under many spellings, which defeats a cache or a log keyed on the path.
 */
public final class UserIds {

    private static final Pattern PLAIN_DECIMAL = Pattern.compile("[1-9][0-9]{0,18}");

    private UserIds() {
    }

    public static long parse(String id) {
        if (!PLAIN_DECIMAL.matcher(id).matches()) {
            throw invalid(id);
        }
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) { // 19 digits above Long.MAX_VALUE
            throw invalid(id);
        }
    }

    private static ServiceException invalid(String id) {
        String shown = id.length() > 40 ? id.substring(0, 40) + "..." : id;
        return new ServiceException(ErrorCode.BAD_REQUEST, "A user id is a positive whole number, not '" + shown + "'");
    }
}
