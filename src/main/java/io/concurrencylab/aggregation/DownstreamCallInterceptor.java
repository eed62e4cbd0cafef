package io.concurrencylab.aggregation;

import io.concurrencylab.error.DownstreamFailures;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Types the failures of a downstream call where they arise, for the blocking and the Uni client alike: what the
 * blocking client throws and what the Uni client fails with go through the same {@link DownstreamFailures}. Counts
 * the calls in flight on the way ({@link DownstreamCallGauges}).
 */
@DownstreamCall
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class DownstreamCallInterceptor {

    private final DownstreamCallGauges gauges;

    DownstreamCallInterceptor(DownstreamCallGauges gauges) {
        this.gauges = gauges;
    }

    @AroundInvoke
    Object typeFailures(InvocationContext call) throws Exception {
        if (Uni.class.equals(call.getMethod().getReturnType())) {
            Uni<?> pending;
            try {
                pending = (Uni<?>) call.proceed();
            } catch (RuntimeException e) {
                throw DownstreamFailures.translate(e);
            }
            return gauges.reactiveCall(pending.onFailure().transform(DownstreamFailures::translate));
        }
        try {
            return gauges.blockingCall(call::proceed);
        } catch (RuntimeException e) {
            throw DownstreamFailures.translate(e);
        }
    }
}
