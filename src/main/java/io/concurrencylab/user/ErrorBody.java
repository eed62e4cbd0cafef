package io.concurrencylab.user;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The JSON body of every error answer, for every model: {@code {"status":401,"error":"invalid_token","message":"..."}}. */
public record ErrorBody(int status, String error, String message) {

    public static Response response(int status, String error, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorBody(status, error, message)).build();
    }
}
