//! Under the `nl-gov` profile types are reverse-DNS with `-` in segments and an optional
//! semver suffix, which the strict default profile refuses. The `ui/` cases are what it
//! refuses.

use cloudevent_runtime::CloudEvent;

/// A semver-suffixed NL GOV type with a `urn:nld:` source.
#[derive(CloudEvent)]
#[cloudevent(
    type = "nl.brp.huwelijk-voltrokken.v0.1.0",
    source = "urn:nld:oin:00000001823288444000:systeem:BRP-component"
)]
pub struct HuwelijkVoltrokken {
    /// The subject.
    #[cloudevent(subject)]
    pub bsn: String,
    /// Sequence, documented by NL GOV as a String.
    #[cloudevent(extension = "sequence")]
    pub sequence: String,
}

/// Three segments: too few for INTG-STD-015 R-4, fine for NL GOV.
#[derive(CloudEvent)]
#[cloudevent(type = "nl.brp.persoon-gehuwd")]
pub struct PersoonGehuwd;

/// A four-number version breaks a NL GOV SHOULD (a warning in `cloudevent-rules`), and a
/// warning does not fail the build: the derive reports MUSTs only.
#[derive(CloudEvent)]
#[cloudevent(type = "nl.brp.huwelijk-voltrokken.v1.2.3.4")]
pub struct ShouldOnly;

#[cfg(test)]
mod tests {
    use super::*;
    use cloudevent_runtime::CloudEventData;

    #[test]
    fn nl_gov_types_are_kept() {
        assert_eq!(
            HuwelijkVoltrokken::TYPE,
            "nl.brp.huwelijk-voltrokken.v0.1.0"
        );
        assert_eq!(PersoonGehuwd::TYPE, "nl.brp.persoon-gehuwd");
        let event = HuwelijkVoltrokken {
            bsn: "999993653".into(),
            sequence: "1".into(),
        };
        assert_eq!(event.subject(), Some("999993653"));
    }

    #[test]
    fn the_crate_profile_reaches_the_runtime() {
        // Run-time setters check values against `PROFILE`, so it must be the crate's.
        assert_eq!(HuwelijkVoltrokken::PROFILE, cloudevent_runtime::Profile::NlGov);
        assert_eq!(PersoonGehuwd::PROFILE, cloudevent_runtime::Profile::NlGov);
    }
}
