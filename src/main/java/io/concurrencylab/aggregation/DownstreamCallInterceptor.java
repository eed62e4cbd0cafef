package io.concurrencylab.aggregation;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Types the failures of a downstream call where they arise, for the blocking and the Uni client alike: what the
 * blocking client throws and what the Uni client fails with go through the same {@link DownstreamFailures}.
 */
@DownstreamCall
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class DownstreamCallInterceptor {

    @AroundInvoke
    Object typeFailures(InvocationContext call) throws Exception {
        Object result;
        try {
            result = call.proceed();
        } catch (RuntimeException e) {
            throw DownstreamFailures.translate(e);
        }
        return result instanceof Uni<?> pending ? pending.onFailure().transform(DownstreamFailures::translate) : result;
    }
}
