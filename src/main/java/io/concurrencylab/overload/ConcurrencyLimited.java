package io.concurrencylab.overload;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a resource method of a model's package: its requests count against that model's limit for this kind of work
 * ({@link ConcurrencyLimit}). A method without it is not limited.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ConcurrencyLimited {

    WorkKind value();
}
