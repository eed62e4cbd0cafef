package io.concurrencylab.nativeimage;

import io.concurrencylab.downstream.BaseInfo;
import io.concurrencylab.downstream.DetailInfo;
import io.concurrencylab.downstream.ExtraInfo;
import io.concurrencylab.user.ErrorBody;
import io.concurrencylab.user.UserAggregate;
import io.concurrencylab.user.UserView;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Reflection registrations a native executable needs for the JSON records (no effect on the JVM).
 * <p>
 * What Quarkus does by itself (Quarkus REST and REST Client guides, native tips guide): the types that
 * resource methods return, including inside {@code Uni<...>}, and the types REST client interfaces return
 * are registered for Jackson automatically. That covers UserView, UserAggregate (server side) and
 * BaseInfo, DetailInfo, ExtraInfo (client side, and server side in DownstreamResource).
 * <p>
 * What it cannot see: {@link ErrorBody} only travels inside a {@code jakarta.ws.rs.core.Response} built by
 * the exception mappers, whose entity type is unknown at build time. It must be registered here. The other
 * records are listed as well, so that a refactoring that wraps them in {@code Response} too does not break
 * the native executable silently; registering a class twice is harmless.
 */
@RegisterForReflection(targets = {
        ErrorBody.class,
        UserView.class,
        UserAggregate.class,
        BaseInfo.class,
        DetailInfo.class,
        ExtraInfo.class })
public final class NativeReflection {

    private NativeReflection() {
    }
}
