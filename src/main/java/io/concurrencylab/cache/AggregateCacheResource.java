package io.concurrencylab.cache;

import io.concurrencylab.aggregation.UserIds;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;

/**
 * {@code DELETE /cache/aggregate/{id}}: 204 once the user's cached aggregate is forgotten in every replica
 * ({@link AggregateCacheInvalidation}); 503 {@code cache_unavailable} when Redis could not be reached.
 */
@Path("/cache/aggregate")
public class AggregateCacheResource {

    private final AggregateCacheInvalidation invalidation;

    AggregateCacheResource(AggregateCacheInvalidation invalidation) {
        this.invalidation = invalidation;
    }

    @DELETE
    @Path("/{id}")
    public Uni<Void> invalidate(String id) {
        return invalidation.invalidate(UserIds.parse(id));
    }
}
