//! The members of an event object the JSON format names (CE-JSON 2.x, 3.1), read by name.

/// A member the JSON format names: the spec's context attributes in their order, then
/// `data` and `data_base64`. Any other member of an event object is an extension attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Member {
    SpecVersion,
    Id,
    Source,
    Type,
    DataContentType,
    DataSchema,
    Subject,
    Time,
    Data,
    DataBase64,
}

impl Member {
    /// Every member, in the order of [`cloudevent_rules::JSON_FORMAT_MEMBERS`], the one list
    /// of their names.
    const ALL: [Member; 10] = [
        Member::SpecVersion,
        Member::Id,
        Member::Source,
        Member::Type,
        Member::DataContentType,
        Member::DataSchema,
        Member::Subject,
        Member::Time,
        Member::Data,
        Member::DataBase64,
    ];

    /// The member's name in the event object.
    pub(crate) const fn name(self) -> &'static str {
        cloudevent_rules::JSON_FORMAT_MEMBERS[self as usize]
    }

    /// The member named `key`; `None` for an extension attribute.
    #[inline(always)]
    pub(crate) fn of(key: &str) -> Option<Member> {
        let index = cloudevent_rules::JSON_FORMAT_MEMBERS
            .iter()
            .position(|name| *name == key)?;
        Some(Member::ALL[index])
    }

    /// The bit of the member in a [`Members`] set.
    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The named members an event object held so far, for duplicate detection.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Members(u16);

impl Members {
    /// Adds `member`; `false` when it was already there (a duplicate).
    pub(crate) fn insert(&mut self, member: Member) -> bool {
        let new = !self.contains(member);
        self.0 |= member.bit();
        new
    }

    pub(crate) fn contains(self, member: Member) -> bool {
        self.0 & member.bit() != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_members_are_the_rules_list_of_them() {
        let names = [
            "specversion",
            "id",
            "source",
            "type",
            "datacontenttype",
            "dataschema",
            "subject",
            "time",
            "data",
            "data_base64",
        ];
        assert_eq!(Member::ALL.map(Member::name), names);
        for (index, member) in Member::ALL.into_iter().enumerate() {
            assert_eq!(member as usize, index, "{member:?}");
            assert_eq!(Member::of(member.name()), Some(member));
        }
        assert_eq!(Member::of("region"), None);
        assert_eq!(Member::of("Type"), None);
    }

    #[test]
    fn a_member_is_new_once() {
        let mut members = Members::default();
        assert!(members.insert(Member::Time));
        assert!(!members.insert(Member::Time));
        assert!(members.contains(Member::Time));
        assert!(!members.contains(Member::Type));
    }
}
