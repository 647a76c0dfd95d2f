/// What ties the sprite the timeline follows to the sprite the check is about.
///
/// A flip the followed sprite shows is evidence whatever it is; the absence of one is evidence only
/// about the sprite under test. Auto mode follows the first thing it sees mirror in place, which in
/// a scene with two sprites may be the one that turns for real while the other's flip is too faint
/// to start a track.
public enum SpriteIdentity: String, Sendable {
    /// The user named the sprite with a template.
    case template
    /// Auto mode found it by a mirror event, and the probe log's sprite makes its turns.
    case log
    /// Auto mode found it by a mirror event, and nothing else ties it to the sprite under test.
    case firstMirrorEvent = "first_mirror_event"
    /// No sprite was located.
    case none
}
