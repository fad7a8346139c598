//! [`Event<T>`] to and from [`AnyEvent`].

use super::*;

impl<T: CloudEventData> Event<T> {
    pub(crate) fn from_any(any: AnyEvent) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        if any.ty() != T::TYPE {
            return Err(FormatError::from(type_mismatch::<T>(any.ty())));
        }
        let data = match any.data() {
            None => from_absent::<T>().ok_or_else(|| FormatError::from(absent_violation::<T>()))?,
            Some(Data::Json(raw)) => {
                from_json_text::<T>(raw.get()).map_err(FormatError::Invalid)?
            }
            Some(Data::Text(text)) => T::deserialize(Leaf::Str(text))
                .map_err(|e| FormatError::from(payload_mismatch::<T>(e)))?,
            Some(Data::Binary(bytes)) => T::deserialize(Leaf::Bytes(bytes))
                .map_err(|e| FormatError::from(payload_mismatch::<T>(e)))?,
        };
        if let Some(violation) = payload_string_violation(&data) {
            return Err(FormatError::from(violation));
        }
        Event::assemble(
            EventId::copy(any.id()),
            any.source(),
            any.datacontenttype(),
            any.dataschema(),
            any.subject().map(Cow::Borrowed),
            any.time().cloned(),
            (any.extensions().clone(), &[], None),
            data,
        )
        .map_err(FormatError::Invalid)
    }

    /// A received [`AnyEvent`]'s attributes around a payload the caller decoded from its
    /// data (the Protobuf format's `proto_data`, which serde does not read).
    #[cfg(feature = "protobuf")]
    pub(crate) fn from_any_with_data(any: &AnyEvent, data: T) -> Result<Self, FormatError> {
        if any.ty() != T::TYPE {
            return Err(FormatError::from(type_mismatch::<T>(any.ty())));
        }
        Event::assemble(
            EventId::copy(any.id()),
            any.source(),
            any.datacontenttype(),
            any.dataschema(),
            any.subject().map(Cow::Borrowed),
            any.time().cloned(),
            (any.extensions().clone(), &[], None),
            data,
        )
        .map_err(FormatError::Invalid)
    }

    /// Builds a received event, borrowing `T`'s constants where the values match them and
    /// dropping envelope copies of what the payload already holds. An envelope extension,
    /// `id`, `time` or `source` that a payload field also fills, with another value, is
    /// refused: an attribute has one value, and keeping both would send both on
    /// (INTG-STD-015 R-7). The envelope's extensions are the map and the Strings a reader
    /// held aside (`held`, in name order, no name in both; see `format::json::Held`): one
    /// held that the payload writes itself is never copied, the others are kept; `written`,
    /// when the reader's slot found every extension the payload writes to be a held String
    /// of the same text, says which (`payload_strings_in_envelope`).
    #[allow(clippy::too_many_arguments)] // one per attribute; private
    pub(crate) fn assemble(
        id: EventId,
        source: &str,
        datacontenttype: Option<&str>,
        dataschema: Option<&str>,
        subject: Option<Cow<'_, str>>,
        time: Option<Timestamp>,
        (mut extensions, held, written): (Extensions, &[(&str, &str)], Option<u32>),
        data: T,
    ) -> Result<Self, Box<Violation>> {
        // Compared before it is owned: the usual received subject is the payload's own.
        let subject = if subject.as_deref() == payload_subject(&data) {
            Subject::FromPayload
        } else {
            subject.map_or(Subject::Unset, |s| Subject::Set(s.into_owned()))
        };
        if let Some(violation) = envelope_disagreement(&data, id.as_str(), source, time.as_ref()) {
            return Err(Box::new(violation));
        }
        // Bit `i`: the `i`-th held extension is the payload's own, written by the payload.
        // `written`: the slot's walk found every extension the payload writes to be a held
        // one of the same text, so this walk would find no conflict and no kept copy.
        let mut carried = written.unwrap_or(0);
        if written.is_none() && !T::EXTENSIONS.is_empty() {
            let mut conflict = None;
            let _ = data.visit_extensions(&mut Visit {
                skip: &Extensions::default(),
                f: |name: &str, value: ExtensionValue<'_>| {
                    let held_at = held.iter().position(|(held, _)| *held == name);
                    let got = match held_at {
                        Some(at) => Some(ExtensionValue::String(held[at].1)),
                        None => extensions.get(name).map(ExtensionValueBuf::as_value),
                    };
                    match got {
                        Some(got) if crate::extension::is_carried_by(value, got) => {
                            // The payload writes it; an envelope copy would be a second one.
                            match held_at {
                                Some(at) => carried |= 1 << at,
                                None => {
                                    extensions.remove(name);
                                }
                            }
                        }
                        Some(got) if conflict.is_none() => {
                            conflict = Some(
                                Violation::error(
                                    rule::INTG_R7,
                                    name.to_owned(),
                                    crate::extension::canonical(got).into_owned(),
                                    format!(
                                        "is given twice with different values: the envelope says `{}`, the payload field filling it says `{}`",
                                        crate::extension::canonical(got),
                                        crate::extension::canonical(value),
                                    ),
                                )
                                .with_hint("an attribute has one value; send it once, or the same in both places"),
                            );
                        }
                        _ => {}
                    }
                    Ok::<(), std::convert::Infallible>(())
                },
            });
            if let Some(violation) = conflict {
                return Err(Box::new(violation));
            }
        }
        // A held extension the payload does not write is the envelope's own after all.
        for (at, (name, value)) in held.iter().enumerate() {
            if carried & (1 << at) == 0 {
                extensions.try_insert_new(
                    (*name).to_owned(),
                    ExtensionValueBuf::String((*value).to_owned()),
                );
            }
        }
        Ok(Event {
            id,
            source: static_or_owned(source, T::SOURCE),
            datacontenttype: datacontenttype.map_or(Cow::Borrowed(T::DATACONTENTTYPE), |v| {
                static_or_owned(v, Some(T::DATACONTENTTYPE))
            }),
            dataschema: dataschema.map(|v| static_or_owned(v, T::DATASCHEMA)),
            subject,
            time,
            extensions,
            data,
            invalid: None,
        })
    }
}

impl AnyEvent {
    /// The event as a typed [`Event<T>`], if its type is `T`'s.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Ping { n: u32 }
    /// impl CloudEventData for Ping {
    ///     const TYPE: &'static str = "com.example.health.ping.sent";
    ///     const DATASCHEMA: Option<&'static str> = None;
    ///     const SOURCE: Option<&'static str> = None;
    ///     const DATACONTENTTYPE: &'static str = "application/json";
    ///     const EXTENSIONS: &'static [&'static str] = &[];
    ///     fn subject(&self) -> Option<&str> { None }
    ///     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
    /// }
    ///
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
    ///     "type":"com.example.health.ping.sent","data":{"n":3}}"#).unwrap();
    /// let ping: Event<Ping> = any.into_typed().unwrap();
    /// assert_eq!(ping.data().n, 3);
    /// ```
    ///
    /// # Errors
    /// When the type differs (the error names both) or the data does not fit `T`.
    pub fn into_typed<T>(self) -> Result<Event<T>, FormatError>
    where
        T: CloudEventData + de::DeserializeOwned,
    {
        Event::from_any(self)
    }
}
