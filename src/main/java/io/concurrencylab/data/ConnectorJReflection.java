package io.concurrencylab.data;

import com.mysql.cj.PerConnectionLRUFactory;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Connector/J creates its prepared-statement cache (cachePrepStmts=true, application.properties) from a class name,
 * by reflection. A native executable keeps only the classes it is told of: without this, every connection fails.
 */
@RegisterForReflection(targets = PerConnectionLRUFactory.class)
final class ConnectorJReflection {

    private ConnectorJReflection() {
    }
}
