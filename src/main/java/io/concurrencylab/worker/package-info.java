/**
 * The worker-pool model: the blocking code of the shared packages, each request on a thread of Quarkus' worker pool
 * ({@code @Blocking}), the parallel branches on the same pool or a dedicated one ({@link BranchExecutor}).
 * <p>
 * Its resources are whole copies of the virtual-thread model's rather than one class written for both: a reader
 * compares the models file by file, which is what the lab is for, and a base class shared by the two would move the
 * lines that matter out of the files being compared. {@code TwinsTest} holds the copies to their one difference: the
 * package and route, the annotation, the executor of the parallel branches, and the class comments.
 */
package io.concurrencylab.worker;
