package io.concurrencylab.user;

/** The JSON answer of {@code GET /{model}/users/me}, identical for every model. */
public record UserView(String email, String first, String last, String city, String county, Integer age) {

    public static UserView of(User user) {
        return new UserView(user.email, user.first, user.last, user.city, user.county, user.age);
    }
}
