package io.concurrencylab.workload;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The query parameters of hold and mixed, read the same way for every model: a whole number from 0 to the configured
 * maximum, or a 400, so that no request can hold a connection or a core for longer than the operator allows.
 */
@ApplicationScoped
public class WorkloadLimits {

    private final long maxHoldMs;
    private final int maxCpuRounds;

    WorkloadLimits(WorkloadConfig config) {
        this.maxHoldMs = config.maxHoldMs();
        this.maxCpuRounds = config.maxCpuRounds();
    }

    public long holdMs(String ms) {
        return parse("ms", ms, maxHoldMs);
    }

    public int cpuRounds(String cpu) {
        return (int) parse("cpu", cpu, maxCpuRounds);
    }

    private static long parse(String name, String raw, long max) {
        if (raw == null) {
            throw new ServiceException(ErrorCode.BAD_REQUEST, "The query parameter " + name + " is required");
        }
        long parsed;
        try {
            parsed = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            parsed = -1;
        }
        if (parsed < 0 || parsed > max) {
            String shown = raw.length() > 40 ? raw.substring(0, 40) + "..." : raw;
            throw new ServiceException(ErrorCode.BAD_REQUEST,
                    name + " is a whole number from 0 to " + max + ", not '" + shown + "'");
        }
        return parsed;
    }
}
