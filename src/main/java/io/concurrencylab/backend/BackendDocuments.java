package io.concurrencylab.backend;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * What data and heavy answer, generated once from the seed: the same documents in every instance and every run. They
 * are kept as objects and serialised for every answer, so each answer costs the serialisation a real backend pays.
 * Registered for reflection: Jackson serialises them from a Vert.x handler, where a native build cannot see them.
 */
final class BackendDocuments {

    private static final String[] WORDS = { "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
            "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa" };

    /** data: 32 items, about 5 KB of JSON. */
    @RegisterForReflection
    record Item(UUID id, String sku, String name, double price, int quantity, List<String> tags, boolean active) {
    }

    /** heavy: 128 nested records with long strings, about 50 KB of JSON. */
    @RegisterForReflection
    record Entry(UUID id, int index, String title, String description, Attributes attributes, List<Event> history) {
    }

    @RegisterForReflection
    record Attributes(String color, String size, double weight, List<Integer> dimensions) {
    }

    @RegisterForReflection
    record Event(long at, String kind, String by, String note) {
    }

    final List<Item> data;
    final List<Entry> heavy;

    BackendDocuments(long seed) {
        Random random = new Random(seed);
        this.data = IntStream.range(0, 32).mapToObj(i -> item(random, i)).toList();
        this.heavy = IntStream.range(0, 128).mapToObj(i -> entry(random, i)).toList();
    }

    private static Item item(Random random, int i) {
        return new Item(new UUID(random.nextLong(), random.nextLong()), "SKU-%05d".formatted(random.nextInt(100_000)),
                "Item " + i + " " + words(random, 2), Math.round(random.nextDouble() * 100_000) / 100.0,
                random.nextInt(1000), List.of(word(random), word(random), word(random)), random.nextBoolean());
    }

    private static Entry entry(Random random, int i) {
        Attributes attributes = new Attributes(word(random), word(random), Math.round(random.nextDouble() * 10_000) / 100.0,
                List.of(random.nextInt(500), random.nextInt(500), random.nextInt(500)));
        List<Event> history = IntStream.range(0, 2)
                .mapToObj(e -> new Event(1_700_000_000_000L + random.nextInt(1_000_000_000), word(random), word(random),
                        words(random, 4)))
                .toList();
        return new Entry(new UUID(random.nextLong(), random.nextLong()), i, words(random, 3), words(random, 11),
                attributes, history);
    }

    private static String word(Random random) {
        return WORDS[random.nextInt(WORDS.length)];
    }

    private static String words(Random random, int count) {
        return String.join(" ", IntStream.range(0, count).mapToObj(w -> word(random)).toList());
    }
}
