use proptest::prelude::*;

use super::*;
use crate::ExtensionValue;

fn eval(source: &str) -> Evaluation<'static> {
    let expression = Box::leak(Box::new(Expression::parse(source).unwrap()));
    let result = expression.evaluate(&Envelope::default());
    Evaluation {
        value: result.value.into_owned(),
        errors: result.errors,
    }
}

#[test]
fn parse_errors_point_at_the_offending_token() {
    for (source, span, found) in [
        ("ABC(", (4, 4), "the end of the expression"),
        ("a = = b", (4, 5), "`=`"),
        ("type LIKE subject", (10, 17), "`subject`"),
        ("1 +", (3, 3), "the end"),
        ("(1 + 2", (6, 6), "the end"),
        ("'abc", (0, 4), "never closed"),
        ("a # b", (2, 3), "'#'"),
        ("2147483648", (0, 10), "32-bit"),
        ("x IN ()", (6, 7), "`)`"),
        ("EXISTS 1", (7, 8), "integer `1`"),
        ("my_ext = 1", (0, 6), "not an attribute name"),
        ("a b", (2, 3), "`b`"),
    ] {
        let error = Expression::parse(source).unwrap_err();
        assert_eq!(
            (error.span.start, error.span.end),
            span,
            "{source}: {error}"
        );
        assert!(error.message.contains(found), "{source}: {error}");
    }
}

#[test]
fn the_most_negative_integer_is_a_literal() {
    assert_eq!(eval("-2147483648").value, Value::Integer(i32::MIN));
    assert!(Expression::parse("2147483647").is_ok());
}

#[test]
fn operators_bind_as_section_3_6_says() {
    assert_eq!(eval("1 + 2 * 3").value, Value::Integer(7));
    assert_eq!(eval("10 - 2 - 3").value, Value::Integer(5), "left to right");
    assert_eq!(eval("1 + 1 = 2 AND TRUE").value, Value::Boolean(true));
    assert_eq!(
        eval("NOT 'a' LIKE 'a'").errors[0].kind,
        ErrorKind::Cast,
        "NOT binds tighter than LIKE"
    );
    assert_eq!(eval("1 IN (1) = TRUE").value, Value::Boolean(true));
    assert_eq!(eval("not exists subject").value, Value::Boolean(true));
}

#[test]
fn errors_carry_kind_span_and_default_value() {
    let result = eval("1 + 2147483647");
    assert_eq!(result.value, Value::Integer(i32::MAX));
    assert_eq!(result.errors[0].kind, ErrorKind::Math);
    let result = eval("-(-2147483648)");
    assert_eq!(result.errors[0].kind, ErrorKind::Math);
    let result = eval("NOPE(1)");
    assert_eq!(result.value, Value::Boolean(false));
    assert_eq!(result.errors[0].kind, ErrorKind::MissingFunction);
    assert_eq!(
        (result.errors[0].span.start, result.errors[0].span.end),
        (0, 4)
    );
    let result = eval("'abc' = 1");
    assert_eq!(result.value, Value::Boolean(false));
    assert_eq!(result.errors[0].kind, ErrorKind::Cast);
}

#[test]
fn attributes_are_read_as_cesql_types() {
    let extensions = [
        ("flag", ExtensionValue::Boolean(true)),
        ("n", ExtensionValue::Integer(7)),
        ("blob", ExtensionValue::Binary(b"hi")),
        ("link", ExtensionValue::Uri("https://example.com/x")),
    ];
    let event = Envelope {
        id: Some("1"),
        extensions: &extensions,
        ..Envelope::default()
    };
    let value = |s: &str| {
        Expression::parse(s)
            .unwrap()
            .evaluate(&event)
            .value
            .into_owned()
    };
    assert_eq!(value("flag"), Value::Boolean(true));
    assert_eq!(value("n + 1"), Value::Integer(8));
    assert_eq!(value("blob"), Value::from("aGk="));
    assert_eq!(value("link LIKE 'https://%'"), Value::Boolean(true));
    assert_eq!(
        value("EXISTS blob AND NOT EXISTS nope"),
        Value::Boolean(true)
    );
}

#[test]
fn user_functions_are_dispatched_by_arity_and_checked() {
    let mut functions = Functions::new();
    functions
        .register(
            "HALF",
            &[Type::Integer],
            None,
            Type::Integer,
            |args| match args[0] {
                Value::Integer(i) if i % 2 == 0 => Ok(Value::Integer(i / 2)),
                _ => Err("odd".into()),
            },
        )
        .unwrap()
        .register(
            "HALF",
            &[Type::Integer, Type::Integer],
            None,
            Type::Integer,
            |_| Ok(Value::Boolean(true)),
        )
        .unwrap();
    let run = |s: &str| {
        let e = Expression::parse_with(s, &functions).unwrap();
        let r = e.evaluate(&Envelope::default());
        (
            r.value.into_owned(),
            r.errors.iter().map(|e| e.kind).collect::<Vec<_>>(),
        )
    };
    assert_eq!(run("half('8')"), (Value::Integer(4), vec![]));
    assert_eq!(
        run("HALF(7)"),
        (Value::Integer(0), vec![ErrorKind::FunctionEvaluation])
    );
    assert_eq!(
        run("HALF(1, 2)"),
        (Value::Integer(0), vec![ErrorKind::FunctionEvaluation]),
        "wrong return type"
    );
    assert_eq!(
        run("HALF(1, 2, 3)"),
        (Value::Boolean(false), vec![ErrorKind::MissingFunction])
    );
    assert!(
        functions
            .register("LENGTH", &[Type::String], None, Type::Integer, |_| Ok(
                Value::Integer(0)
            ))
            .is_err()
    );
    assert!(
        functions
            .register("HALF", &[], Some(Type::Integer), Type::Integer, |_| Ok(
                Value::Integer(0)
            ))
            .is_err()
    );
    assert!(
        functions
            .register(
                "HALF",
                &[Type::Integer; 3],
                Some(Type::Integer),
                Type::Integer,
                |_| Ok(Value::Integer(0))
            )
            .is_ok()
    );
    assert!(
        functions
            .register(
                "HALF",
                &[Type::Integer; 4],
                Some(Type::Integer),
                Type::Integer,
                |_| Ok(Value::Integer(0))
            )
            .is_err(),
        "a second variadic overload"
    );
    assert!(
        functions
            .register("9X", &[], None, Type::Integer, |_| Ok(Value::Integer(0)))
            .is_err()
    );
}

/// Limits wide enough for the inputs below, whose point is depth or length, not size.
const WIDE: Limits = Limits {
    max_expression_bytes: 16 * 1024 * 1024,
    ..Limits::DEFAULT
};

fn parse_wide(source: &str) -> Result<Expression, ParseError> {
    Expression::parse_with_limits(source, &Functions::new(), WIDE)
}

#[test]
fn deep_nesting_is_a_parse_error_not_a_stack_overflow() {
    for source in [
        "(".repeat(100_000) + "1" + &")".repeat(100_000),
        "NOT ".repeat(100_000) + "TRUE",
        "-".repeat(100_000) + "1",
        "LENGTH(".repeat(100_000) + "'a'" + &")".repeat(100_000),
        "1 IN (".repeat(100_000) + "1" + &")".repeat(100_000),
    ] {
        let error = parse_wide(&source).unwrap_err();
        assert!(error.message.contains("nests deeper"), "{error}");
    }
}

/// Issue 38: a chain of one operator is a loop, not nesting. 64 `OR` operands were refused
/// as "nests deeper than 64 levels"; a chain of any length now parses, evaluates, is checked
/// and dropped without recursing along it.
#[test]
fn a_chain_of_operators_is_not_nesting() {
    let ors = vec!["subject = 'x'"; 64].join(" OR ");
    assert!(Expression::parse(&ors).is_ok(), "64 operands");
    let event = Envelope {
        subject: Some("x"),
        ..Envelope::default()
    };
    for (source, value) in [
        (
            vec!["subject = 'y'"; 100_000].join(" OR ") + " OR subject = 'x'",
            Value::Boolean(true),
        ),
        (
            vec!["subject = 'x'"; 100_000].join(" AND "),
            Value::Boolean(true),
        ),
        (
            "1".to_owned() + &" + 1".repeat(100_000),
            Value::Integer(100_001),
        ),
        (
            "0".to_owned() + &" + 2 - 1".repeat(50_000),
            Value::Integer(50_000),
        ),
    ] {
        let e = parse_wide(&source).unwrap();
        let result = e.evaluate(&event);
        assert_eq!(result.value, value);
        assert!(result.errors.is_empty(), "{:?}", result.errors);
        assert!(e.check(&Schema::core()).is_empty());
    }
    // Nesting inside a chain still counts: parentheses 65 deep are refused wherever they are.
    let deep = "1 + ".to_owned() + &"(".repeat(65) + "1" + &")".repeat(65);
    assert!(
        Expression::parse(&deep)
            .unwrap_err()
            .message
            .contains("nests deeper")
    );
    // An error in a chain propagates as it did through the tree: the operators after it
    // give their zero value, the error keeps the span of the operation that raised it.
    let result = eval("1 / 0 + 5 > 2 - 7");
    assert_eq!(result.value, Value::Boolean(false));
    assert_eq!(result.errors.len(), 1);
    assert_eq!(
        (result.errors[0].span.start, result.errors[0].span.end),
        (0, 5)
    );
    let result = eval("2 * 3 - 2147483647 - 100");
    assert_eq!(result.errors[0].kind, ErrorKind::Math);
    assert_eq!(
        (result.errors[0].span.start, result.errors[0].span.end),
        (0, 24)
    );
}

/// Issue 38: `attributes()` searched its list for each name, quadratic: 100,000 names took
/// 17.9 s.
#[test]
fn attributes_are_collected_in_linear_time() {
    let source = (0..100_000)
        .map(|i| format!("a{i} = 1"))
        .collect::<Vec<_>>()
        .join(" OR ");
    let e = parse_wide(&source).unwrap();
    let started = std::time::Instant::now();
    let names = e.attributes();
    let took = started.elapsed();
    println!("attributes() of 100,000 names: {took:?}");
    assert_eq!(names.len(), 100_000);
    assert_eq!((names[0], names[99_999]), ("a0", "a99999"));
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
}

/// Issue 38: the parse-time bounds, each a parse error naming the limit.
#[test]
fn expressions_and_patterns_past_their_limits_are_parse_errors() {
    let long = "subject = 'x' OR ".repeat(4000) + "TRUE";
    assert!(long.len() > Limits::DEFAULT.max_expression_bytes);
    let error = Expression::parse(&long).unwrap_err();
    assert_eq!(error.span.start, Limits::DEFAULT.max_expression_bytes);
    assert!(
        error
            .message
            .contains("longer than the limit of 65536 bytes (cesql::Limits::max_expression_bytes)"),
        "{error}"
    );
    // 10 MB of `(` is refused before anything is read, and with a wider limit at the
    // depth limit.
    let parens = "(".repeat(10_000_000);
    assert!(
        Expression::parse(&parens)
            .unwrap_err()
            .message
            .contains("longer than")
    );
    assert!(
        parse_wide(&parens)
            .unwrap_err()
            .message
            .contains("nests deeper")
    );

    let pattern = format!("subject LIKE '%{}%'", "a".repeat(1100));
    let error = Expression::parse(&pattern).unwrap_err();
    assert_eq!((error.span.start, error.span.end), (13, pattern.len()));
    assert!(
        error
            .message
            .contains("the LIKE pattern is 1102 bytes, longer than the limit of 1024 bytes"),
        "{error}"
    );
    let roomy = Limits {
        max_pattern_bytes: 4096,
        ..Limits::DEFAULT
    };
    assert!(Expression::parse_with_limits(&pattern, &Functions::new(), roomy).is_ok());
}

/// Issue 38: a function's string result past the event size limit is a
/// FunctionEvaluationError, found before the string is made; and one evaluation's work is
/// bounded whatever the expression.
#[test]
fn strings_and_work_made_by_an_evaluation_are_bounded() {
    let subject = "s".repeat(255 * 1024);
    let event = Envelope {
        subject: Some(&subject),
        ..Envelope::default()
    };
    let run = |source: &str| {
        let e = Expression::parse(source).unwrap();
        let r = e.evaluate(&event);
        (r.value.into_owned(), r.errors)
    };
    let (value, errors) = run("CONCAT(subject, subject)");
    assert_eq!(value, Value::from(""));
    assert_eq!(errors[0].kind, ErrorKind::FunctionEvaluation);
    assert!(
        errors[0]
            .message
            .starts_with("CONCAT: a string of 522240 bytes, past the limit of 262144 bytes"),
        "{}",
        errors[0]
    );
    let (_, errors) = run("CONCAT_WS(subject, 'a', 'b')");
    assert!(errors.is_empty(), "{errors:?}");
    let (_, errors) = run("CONCAT_WS(subject, 'a', 'b', 'c')");
    assert_eq!(errors[0].kind, ErrorKind::FunctionEvaluation);
    assert_eq!(run("LENGTH(LOWER(subject))").0, Value::Integer(255 * 1024));
    // A filter over what a function refused does not select the event.
    assert!(
        !Expression::parse("LENGTH(CONCAT(subject, subject)) > 0")
            .unwrap()
            .matches(&event)
    );

    // Each call stays within the string limit, but together they would scan 1,000 times
    // the subject: the budget stops the evaluation.
    let many = format!("CONCAT({})", vec!["LEFT(subject, 200)"; 1000].join(", "));
    let (value, errors) = run(&many);
    assert_eq!(value, Value::from(""));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, ErrorKind::Generic);
    assert!(
        errors[0]
            .message
            .contains("cesql::Limits::max_evaluation_cost")
    );
    let ors = vec!["subject LIKE '%x_y%'"; 200].join(" OR ");
    let (value, errors) = run(&ors);
    assert_eq!(value, Value::Boolean(false));
    assert_eq!(errors[0].kind, ErrorKind::Generic);
    // Within the budget, nothing changes.
    assert_eq!(
        run("subject LIKE '%x_y%' OR LENGTH(subject) > 1").0,
        Value::Boolean(true)
    );
}

#[test]
fn the_checker_finds_what_every_evaluation_would_raise() {
    let schema = Schema::core().with("priority", crate::AttributeKind::Integer);
    let messages = |s: &str| -> Vec<String> {
        Expression::parse(s)
            .unwrap()
            .check(&schema)
            .into_iter()
            .map(|f| f.message)
            .collect()
    };
    assert!(messages("type LIKE 'com.%' AND priority > 2").is_empty());
    assert!(
        messages("priority = 'high'")[0]
            .contains("`priority` is an Integer, never equal to 'high'")
    );
    // One finding a token: the one naming the attribute, not also the cast it implies.
    assert_eq!(
        messages("priority IN (1, 'x')"),
        ["`priority` is an Integer, never equal to 'x' in IN: compare with an integer such as 2"]
    );
    assert_eq!(messages("'x' = priority").len(), 1);
    assert!(messages("subject IN ('a', 1 + 'x')")[0].contains("'x' is not a valid Integer"));
    assert!(messages("1 + 'a'")[0].contains("'a' is not a valid Integer"));
    assert!(messages("CONCAT_WS()")[0].contains("no function CONCAT_WS takes 0"));
    assert!(messages("FOO(1)")[0].contains("no function has that name"));
}

/// `cesql!(T, ..)` runs the checker once per extension and type it could be declared with
/// and lets a `const` pick the verdict of `T`'s declarations; that is the verdict of one
/// check over all of them only while each finding reads one attribute's type. Holds it.
#[test]
fn each_finding_reads_one_attribute_type() {
    use crate::AttributeKind::{Boolean, Integer, String as Str, Timestamp};
    for source in [
        "a = 'x' AND b = 'y'",
        "a = b OR a IN (b, 'z', 1) OR b IN ('q', a)",
        "'n' = a AND b != 'm' AND a + b > 1",
        "NOT (a = 'x') XOR LENGTH(b) = 'one'",
    ] {
        let e = Expression::parse(source).unwrap();
        for ka in [Boolean, Integer, Str, Timestamp] {
            for kb in [Boolean, Integer, Str, Timestamp] {
                let both = e.check(&Schema::core().with("a", ka).with("b", kb));
                let mut each = e.check(&Schema::core().with("a", ka));
                each.extend(e.check(&Schema::core().with("b", kb)));
                let key = |f: &crate::cesql::Finding| (f.span.start, f.message.clone());
                let mut both: Vec<_> = both.iter().map(key).collect();
                let mut each: Vec<_> = each.iter().map(key).collect();
                both.sort();
                each.sort();
                each.dedup();
                assert_eq!(both, each, "{source} with a: {ka:?}, b: {kb:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Parsing and evaluating never panic, whatever the input.
    #[test]
    fn never_panics_on_random_text(source in ".{0,60}") {
        if let Ok(e) = Expression::parse(&source) {
            let _ = e.evaluate(&Envelope::default());
            let _ = e.check(&Schema::core());
        }
    }

    /// ... nor on random sequences of the language's own tokens, which reach the evaluator.
    #[test]
    fn never_panics_on_random_token_soup(tokens in proptest::collection::vec(prop_oneof![
        Just("("), Just(")"), Just(","), Just("+"), Just("-"), Just("*"), Just("/"), Just("%"),
        Just("="), Just("!="), Just("<>"), Just("<"), Just("<="), Just(">"), Just(">="),
        Just("AND"), Just("OR"), Just("XOR"), Just("NOT"), Just("LIKE"), Just("IN"), Just("EXISTS"),
        Just("TRUE"), Just("0"), Just("2147483647"), Just("-2147483648"), Just("'a%b_'"), Just("'9'"),
        Just("subject"), Just("n"), Just("ABS"), Just("SUBSTRING"), Just("LEFT"), Just("CONCAT_WS"),
        Just("INT"), Just("BOOL"), Just("LENGTH"), Just("'\\\\%'"),
    ], 0..24)) {
        let source = tokens.join(" ");
        let extensions = [("n", ExtensionValue::Integer(i32::MIN))];
        let event = Envelope { subject: Some("ünï"), extensions: &extensions, ..Envelope::default() };
        if let Ok(e) = Expression::parse(&source) {
            let full = e.evaluate(&event);
            prop_assert_eq!(e.matches(&event), full.value == Value::Boolean(true) && full.errors.is_empty());
        }
    }
}
