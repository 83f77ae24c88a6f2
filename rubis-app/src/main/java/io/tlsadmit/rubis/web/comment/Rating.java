package io.tlsadmit.rubis.web.comment;

import io.tlsadmit.rubis.web.Rejection;

/** The five ratings a comment can give; its points are added to the rated user's rating. */
enum Rating {
    EXCELLENT(5, "Excellent"),
    GOOD(3, "Good"),
    AVERAGE(0, "Average"),
    BAD(-3, "Bad"),
    VERY_BAD(-5, "Very bad");

    private final int points;
    private final String label;

    Rating(int points, String label) {
        this.points = points;
        this.label = label;
    }

    int points() {
        return points;
    }

    String label() {
        return label;
    }

    static Rating ofPoints(int points) {
        for (Rating rating : values()) {
            if (rating.points == points) {
                return rating;
            }
        }
        throw Rejection.badRequest("The rating must be one of 5, 3, 0, -3, -5.");
    }
}
