package io.concurrencylab.aggregation;

/** The JSON answer of {@code GET /{model}/users/{id}/aggregate}: three downstream answers in one. */
public record UserAggregate(long id, String name, int age, String sex, String phone, String level) {

    public static UserAggregate of(BaseInfo base, DetailInfo detail, ExtraInfo extra) {
        return new UserAggregate(base.id(), base.name(), detail.age(), detail.sex(), extra.phone(), extra.level());
    }
}
