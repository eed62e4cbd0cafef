package io.concurrencylab.gateway;

import io.concurrencylab.Model;
import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import jakarta.ws.rs.core.Response;

/** What every model's gateway route shares: its headers, and what a backend's error status becomes. */
public final class Gateway {

    /** Added to each forwarded request: the prefix the gateway stripped, as proxies say it. */
    public static final String FORWARDED_PREFIX = "X-Forwarded-Prefix";
    /** Added to each answer: the backend instance that served it. */
    public static final String INSTANCE_HEADER = "X-Gateway-Instance";

    private Gateway() {
    }

    /** The path prefix of a model's gateway route, which the backends do not see. */
    public static String prefix(Model model) {
        return "/" + model.path() + "/gateway";
    }

    /** A backend's 4xx or 5xx is the gateway's 502: the client's request was forwarded, the backend failed it. */
    static ServiceException backendAnswered(Response response) {
        return new ServiceException(ErrorCode.DOWNSTREAM_ERROR, "The backend answered " + response.getStatus());
    }
}
