/// Valid BQL texts: every example of spec §6 (BB-086) and of the seed guide, plus a few more shapes.
/// The fuzz tests mutate these.
enum BQLCorpus {
    /// The queries §6.5 says MUST parse.
    static let specMustParse = [
        "where type=?", "where type=? and start_date>?", "where city is ?", "where languages has ?",
        "where this in ?.favoriteCities", "where this in ?", "where this not in ?", "join country sort by name asc",
        "join last 5 cities", "join first 2 items fetch category", "join last 5 comments having score > ? fetch author",
        "where name like ? and score > ?", "where name like ? sort by name desc", "sort by created_at",
        "where some-field = ?", "where (price<? or price>?) and (weight<? or weight>?)",
        "where weight>=? and weight<=? sort by weight", "where this in ?.items join author",
        "where events is ? join users", "where this in ? join last 100 offer",
        "where title like ? join last 5 comments having score > 10 fetch author sort by created_at",
    ]

    /// Other examples in the spec's text (§5, §6.1-§6.3, §13).
    static let specOther = [
        "where weight>=? and weight<=? sort by weight", "join last 5 comments having score > ?",
        "where a=? and b=? or c=?", "where (a=? and b=?) or c=? or d=? and e=?",
        "join last 100 users join author fetch avatar, favorite_place join foo", "join author", "join comments",
        "join first 2 comments", "join last 2 comments", "join last 5 comments fetch author", "join last 5 favorites",
        "where author.name = ?", "where city is not ?", "WHERE type=? SORT BY name ASC", "where weight>?",
        "where cat=?", "sort by weight desc", "sort by weight",
    ]

    /// The seed guide's queries (`setQuery:withParams:` and `refresh:params:`); its `where ...` is a
    /// placeholder in prose, not a query.
    static let seedGuide = ["where this in ?", "where something > ?", "join something having foo > ?"]

    static let all = specMustParse + specOther + seedGuide
}
