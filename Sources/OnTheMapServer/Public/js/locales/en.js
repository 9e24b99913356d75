// English: the reference catalogue, and the fallback for any key another language lacks.
//
// For translators (copy this file to <code>.js, set meta.language, translate the values only):
// - Keys are dotted and grouped by screen: `login.*` the login card, `app.*` the top bar and tabs,
//   `map.*`, `list.*`, `status.*` the line under the tabs, `post.*` "Post my location", `admin.*`,
//   `error.*` every failure the page explains.
// - `{name}` is a placeholder, filled in by the page: keep it, move it where your grammar wants it.
//   Numbers in placeholders arrive written the reader's way (1,000 / 1.000 / ١٬٠٠٠).
// - A value that is an object ({ one: …, other: … }) has plural forms, chosen by `{count}`: give the
//   forms your language has (zero, one, two, few, many, other: see Intl.PluralRules); `other` is
//   required and used when a form is missing.
// - Labels on the phone's top bar are read aloud only (the bar shows icons); on wider screens
//   they show beside the icons. Tabs and small buttons have little room: keep them short.
// - “ ” and ’ are typographic quotes and apostrophes: use your language's own.
// - The glossary names the app's few terms: translate each one way, everywhere.
export default {
  meta: {
    language: 'en',
    glossary: {
      // A place a student posted, drawn on the map (a map marker).
      pin: 'pin',
      // What a student shares: their place and a link; "posting" is sharing one.
      post: 'post',
      map: 'map',
      list: 'list',
    },
  },
  messages: {
    // The product's name: in the page title, the top bar and the login card. Usually kept as is.
    'app.name': 'On The Map',
    // First thing a keyboard user meets: jumps past the top bar.
    'app.skipToContent': 'Skip to content',
    // Read by screen readers while the page starts (a spinner shows it).
    'app.loading': 'Loading…',

    // The language switch on every screen (a select listing each language in its own name).
    'language.label': 'Language',
    // Offered under the tabs where the browser can install the app (Install, Not now).
    'install.text': 'Put On The Map on your home screen: it opens like an app, even offline.',
    'install.button': 'Install',
    'install.dismiss': 'Not now',
    // The switch between light and dark colours (login cards and top bars); pressed when dark is on.
    'theme.dark': 'Dark mode',

    // Login card.
    'login.intro': 'Put yourself on your course’s map.',
    'login.email': 'Email',
    'login.password': 'Password',
    'login.submit': 'Log in',
    // Between the login form and "Sign in with …" buttons.
    'login.or': 'or',
    // Followed by the link login.signUpLink.
    'login.newHere': 'New here?',
    'login.signUpLink': 'Sign up',
    'login.missing': 'Enter your email and password.',
    // A button per sign-in provider the map's operator set up; {provider} is its name ("Google", "School account").
    'login.signInWith': 'Sign in with {provider}',

    // Sign-up card.
    'signup.title': 'Create your account',
    'signup.firstName': 'First name',
    'signup.lastName': 'Last name',
    'signup.email': 'Email',
    'signup.password': 'Password',
    // Under the password field; {min} is the shortest password allowed (8).
    'signup.passwordHint': 'At least {min} characters.',
    'signup.submit': 'Create account',
    // Followed by the link signup.logInLink.
    'signup.haveAccount': 'Already have an account?',
    'signup.logInLink': 'Log in',

    // The new-password card, opened from a reset link an admin gave.
    'reset.title': 'Choose a new password',
    'reset.password': 'New password',
    // {min}: the shortest password allowed (8).
    'reset.hint': 'At least {min} characters. Every device logged in to your account is logged out.',
    'reset.submit': 'Set password',
    'reset.logInLink': 'Log in',
    'reset.done': 'Your new password is set. Log in with it.',

    // The app's top bar. On a phone these are icons, the words read aloud only.
    'app.refresh': 'Refresh',
    'app.post': 'Post my location',
    'app.admin': 'Admin',
    'app.logOut': 'Log out',
    // On a map opened from a learning platform (Canvas, Moodle…) inside the platform's page.
    'launch.newWindow': 'Open in a new window',
    'launch.ended.title': 'Open the map again from your course',
    'launch.ended.body': 'This map was opened from your course’s page, which signs you in. Open it again there: the link or activity your instructor added.',
    // The Map and List tabs (short: they share a phone's width with the language switch).
    'app.tabs.label': 'Views',
    'app.tabs.map': 'Map',
    'app.tabs.list': 'List',
    'app.hiddenNotice': 'An admin of this map has hidden your pin: only you can see it. Posting again changes it, still hidden.',
    'app.awaitingNotice': 'Your pin waits for an instructor’s approval: until then only you and the course’s instructors see it.',

    // The line under the tabs: what is shown and how current it is.
    'status.loading': 'Loading the latest posts…',
    'status.retry': 'Retry',
    // {when} is time.at or time.onDayAt ("at 11:20", "on 3 Nov at 11:20").
    'status.offline': 'You’re offline: showing the posts saved {when}.',
    'status.noPosts': 'No posts yet. Be the first: choose “Post my location”.',
    // The summary is these parts joined by " · ": "Showing 12 posts · live · 1 new just now",
    // "Showing 12 posts · updated at 11:20 · reconnecting for live updates…".
    'status.showing': { one: 'Showing {count} post', other: 'Showing {count} posts' },
    // Posts arrive as they are made.
    'status.live': 'live',
    'status.arrived': { one: '{count} new just now', other: '{count} new just now' },
    // {when} is time.at or time.onDayAt.
    'status.updated': 'updated {when}',
    'status.reconnecting': 'reconnecting for live updates…',
    // Logging out failed; {reason} is one of the error.* messages.
    'status.stillLoggedIn': 'You are still logged in: {reason}',

    // Times, in sentences such as status.offline and status.updated.
    'time.justNow': 'just now',
    // {time} is a clock time ("11:20").
    'time.at': 'at {time}',
    // {date} is a short day and month ("3 Nov"), {time} a clock time.
    'time.onDayAt': 'on {date} at {time}',

    // The Map tab.
    'map.label': 'Map of posted locations',
    'map.loading': 'Loading the map…',
    // Before the choice of how many pins the map shows.
    'map.show': 'Show',
    // {count}: 100 or 1,000.
    'map.show.latest': { one: 'Latest {count}', other: 'Latest {count}' },
    'map.show.all': 'All posts',
    // A button on the map; also its tooltip.
    'map.fitAll': 'Show all pins',
    'map.zoomIn': 'Zoom in',
    'map.zoomOut': 'Zoom out',
    'map.closePopup': 'Close popup',
    // Read aloud for a bubble grouping several pins; {count} of them.
    'map.cluster': { one: '{count} post here: press Enter to zoom in', other: '{count} posts here: press Enter to zoom in' },
    // A pin's spoken name and tooltip: {name} a student (maybe people.you), {place} where they are.
    'map.pinLabel': '{name}, {place}',
    // The map's credits, bottom corner; {source} is the name "Natural Earth", a link.
    'map.madeWith': 'Made with {source}',

    // The List tab.
    'list.heading': 'Latest posts',
    'list.loading': 'Loading the latest posts…',
    'list.empty': 'No one has posted yet. Be the first: choose “Post my location”.',
    // A badge on a post that just arrived.
    'list.new': 'New',
    // In place of a link's host, for a link that is not a web link (javascript:, a bare word).
    'list.linkUnsafe': 'Link can’t be opened',

    // How people and their links are shown (list, pins, popups). Names are never translated.
    // For a post with no name (from an old app).
    'people.someone': 'Someone',
    // The reader's own post; {name} is their name.
    'people.you': '{name} (you)',
    'people.noLink': 'No link',
    'people.unsafeLink': 'This link can’t be opened: only web links are.',

    // Under a pin's popup: sharing its link.
    'share.button': 'Share link',
    // What the system share sheet gets with the link: {name} a student, {place} where.
    'share.text': '{name}, {place}',
    'share.copied': 'Link copied.',
    // The clipboard could not be used; {link} follows.
    'share.copyFrom': 'Copy it from here: {link}',

    // Under someone else's pin's popup: reporting it to the map's admins.
    'report.summary': 'Report this pin',
    'report.why': 'Why report this pin?',
    'report.reason.spam': 'Spam or advertising',
    'report.reason.offensive': 'Offensive',
    'report.reason.personalInformation': 'Someone’s personal information',
    'report.reason.wrongPlace': 'Not a real place',
    'report.reason.other': 'Something else',
    'report.send': 'Send',
    'report.thanks': 'Thanks: the map’s admins will look at it.',

    // "Post my location": the screen's top bar.
    'post.title': 'Post my location',
    'post.cancel': 'Cancel',
    'post.question': 'Where are you studying from?',
    'post.location': 'Location',
    // An example place in the location field.
    'post.locationPlaceholder': 'e.g. Lyon, France',
    'post.link': 'Link to share',
    'post.linkPlaceholder': 'https://…',
    'post.find': 'Find location',
    // The find button while the place is looked up.
    'post.finding': 'Finding…',
    'post.missingPlace': 'Enter where you are, such as “Lyon, France”.',
    // {place}: what the student typed.
    'post.notFound': 'We couldn’t find “{place}”. Try a city with its country or state, like “Paris, France” or “Austin, TX”.',
    // The preview of the pin before it is saved.
    'post.preview': 'Preview',
    'post.previewMap': 'Preview of your pin',
    'post.newPin': 'Your new pin',
    // Badges: how precisely the place found is known.
    'post.precision.address': 'Street level',
    'post.precision.postcode': 'Postcode level',
    'post.precision.city': 'City level',
    'post.precision.region': 'Region level',
    'post.precision.country': 'Country level',
    // A badge when the first match may not be the place meant; post.doubt.* say why.
    'post.lessSure': 'Less sure',
    'post.doubt.twoPlaces': 'You named two places: this is where you are now.',
    'post.doubt.context': 'We read the place out of the words around it.',
    'post.doubt.typo': 'We corrected the spelling.',
    'post.doubt.transliterated': 'We matched the name by how it sounds.',
    'post.doubt.namesakes': 'Other places have this name too.',
    // After the reasons: other matches are listed below, or there are none.
    'post.doubt.pickAnother': 'Not right? Pick another match below.',
    'post.doubt.edit': 'Not right? Edit what you typed.',
    'post.privacy.legend': 'What everyone in the course sees',
    // Followed by the town's name.
    'post.privacy.city': 'Only my town:',
    // Followed by what the student typed (an address, a postcode).
    'post.privacy.exact': 'The exact place:',
    'post.candidates.legend': 'Not the right place? Pick another match',
    'post.edit': 'Edit',
    'post.finish': 'Finish',
    // Saving failed; {reason} is one of the error.* messages.
    'post.notSaved': 'Your pin wasn’t saved. {reason}',

    // Posts waiting on the device for the network (outbox).
    // Offered on the post form when the place can't be looked up (no network).
    'outbox.later': 'Post when back online',
    'outbox.laterHint': 'Offline, the place can’t be looked up. Post anyway: it will be sent, with the best match for what you typed, when you’re back online.',
    // A post made without a network waits on the device (its list row and pin say so, as a badge).
    'outbox.waiting': 'Waiting to send',
    'outbox.sending': 'Sending…',
    'outbox.cancel': 'Cancel',
    // The status line after Finish without a network.
    'outbox.kept': 'You’re offline. Your post is saved on this device and will be sent when you’re back online.',
    // The same, when the device is online but the server did not answer.
    'outbox.keptUnreachable': 'The server can’t be reached right now. Your post is saved on this device and will be sent as soon as it can be.',
    'outbox.sent': 'Your waiting post was sent.',
    'outbox.cancelled': 'Your waiting post was cancelled.',
    // The server refused a waiting post when it was sent; {place}: what the student typed; {reason}: one of the error.* messages.
    'outbox.refused': 'Your waiting post for {place} could not be sent. {reason}',

    // Asked before a second post replaces the first.
    'overwrite.title': 'Replace your pin?',
    // {place}: where the current pin is.
    'overwrite.text': 'You already have a pin at “{place}”. Posting again will overwrite it.',
    'overwrite.cancel': 'Cancel',
    'overwrite.confirm': 'Overwrite',

    // Asked at Log out when the student has a post waiting on this device (outbox). Keep it and
    // Discard it both log out; Stay logged in (or Escape) does neither.
    'logout.title': 'Your post hasn’t been sent yet',
    // {place}: where the waiting post says the student is.
    'logout.text': 'Your post for “{place}” is still waiting on this device. Keep it here, to be sent when you next log in, or discard it? Either way, you’ll be logged out.',
    'logout.stay': 'Stay logged in',
    'logout.discard': 'Discard it',
    'logout.keep': 'Keep it',

    // Asked in the admin area when an account change (disabling, making an admin, a reset link)
    // needs the admin's password typed again: the server asks after 10 minutes.
    'passwordAgain.title': 'Type your password again',
    // {count}: the minutes within which the password must have been typed (10).
    'passwordAgain.text': {
      one: 'Changing an account needs your password, typed in the last {count} minute. Nothing changes until you confirm it.',
      other: 'Changing an account needs your password, typed in the last {count} minutes. Nothing changes until you confirm it.',
    },
    'passwordAgain.label': 'Your password',
    'passwordAgain.cancel': 'Cancel',
    'passwordAgain.confirm': 'Confirm',
    // Confirm pressed with the field empty.
    'passwordAgain.missing': 'Type your password.',

    // Courses: a map per class. A course has a title ("CS 101, spring term") and an address (its
    // slug, as in /c/cs101-spring/), instructors who manage it and members (students).
    'courses.link': 'Courses',
    'courses.switch': 'Course',
    'courses.title': 'Your courses',
    'courses.mine': 'Maps you are on',
    'courses.open': 'Open its map',
    'courses.manage': 'Manage',
    'courses.instructor': 'Instructor',
    'courses.archived': 'Archived',
    'courses.new': 'Start a course',
    'courses.newTitle': 'Title',
    'courses.newTitlePlaceholder': 'CS 101, spring term',
    'courses.newSlug': 'Address',
    'courses.addressHint': 'Its map will be at {address}',
    'courses.slugRule': '2 to 48 lower-case letters (a–z), digits and single hyphens, such as cs101-spring.',
    'courses.onlyAdmins': 'On this server, its admins start courses: ask one to start yours, and to make you its instructor.',
    'courses.create': 'Create the course',
    'course.back': 'Your courses',
    'course.tabs.label': 'Course sections',
    // Six tabs side by side on a phone (Reports and Log are the admin area's words): keep them short.
    'course.tabs.roster': 'Class',
    'course.tabs.hours': 'Hours',
    'course.tabs.invite': 'Invite',
    'course.tabs.settings': 'Settings',
    'course.roster.summary': { one: '{posted} of {count} student has posted.', other: '{posted} of {count} students have posted.' },
    'course.roster.posted': 'Posted {place} on {when}',
    'course.roster.notPosted': 'Has not posted yet',
    // People a linked learning platform (Canvas, Moodle…) lists for the course who have not opened the map yet.
    'course.roster.notOpened': 'Listed by {platform}; has not opened the map yet',
    'course.roster.platformUnavailable': 'The class list from {platforms} could not be read just now.',
    'course.roster.waiting': 'Added by email: joins when they sign up',
    // A link to the Reports tab, on the Class tab.
    'course.approvals.count': { one: '{count} pin waits for your approval', other: '{count} pins wait for your approval' },
    'course.roster.remove': 'Remove',
    'course.roster.confirmRemove': 'Press again to remove',
    'course.roster.removed': '{name} is no longer in the course; their pin on its map is gone.',
    'course.roster.add': 'Add students',
    'course.roster.addLabel': 'Class list',
    'course.roster.addHint': 'Paste one student a line, in any layout that holds their email. Those without an account join when they sign up.',
    'course.roster.addButton': 'Add',
    'course.roster.added': 'Added: {added}. Joining when they sign up: {waiting}. Already in the course: {members}.',
    // The class by time zone, from where each student posted, and the hours that suit it.
    'course.hours.best': 'The hours of the coming week that suit most of the class, in your time',
    'course.hours.rule': 'An hour suits a student when it falls between {from}:00 and {to}:00 where they posted from.',
    'course.hours.window': '{day}, {from}–{to}',
    'course.hours.suits': '{when}: suits {count} of {total}',
    'course.hours.zones': 'The class by time zone',
    'course.hours.zone': 'Time zone',
    'course.hours.offset': 'Offset',
    'course.hours.localTime': 'Their time now',
    'course.hours.students': 'Students',
    'course.hours.none': 'No student has posted yet: the places they post give their time zones.',
    'course.hours.unknown': { one: '{count} student posted a place with no time zone known (out at sea, say).', other: '{count} students posted places with no time zone known (out at sea, say).' },
    'course.invite.text': 'Students join the course with this link or its QR code, while the link is on.',
    'course.invite.label': 'Invite link',
    'course.invite.copy': 'Copy the link',
    'course.invite.copied': 'The link is copied.',
    'course.invite.qr': 'QR code of the invite link',
    'course.invite.noQr': 'No QR code: this server lacks its QR encoder (Debian’s node-qrcode-generator).',
    'course.invite.renew': 'Make a new link',
    'course.invite.confirmRenew': 'Press again: the old link stops working',
    'course.invite.renewed': 'A new link is made; the old one no longer works.',
    'course.invite.turnOff': 'Turn the link off',
    'course.invite.isOff': 'The link is off: no one can join with it.',
    'course.invite.off': 'The invite link is off: no one can join with it.',
    'course.invite.turnOn': 'Turn the link on',
    'course.invite.on': 'The link is on: students can join with it.',
    'course.visibility': 'Who can see the map',
    'course.visibility.members': 'Only its members',
    'course.visibility.link': 'Anyone with its address (a course page, a projector)',
    'course.names': 'Names shown to readers who are not members',
    'course.names.full': 'Full names',
    'course.names.initials': 'Initials only',
    'course.approval': 'Students’ pins wait for an instructor’s approval before others see them',
    'course.archive': 'Archived: the map stays readable and takes no more posts',
    'course.grading': 'Grade posting a pin in the learning platform’s grade book (a score of 1 for each student who posts)',
    'course.save': 'Save',
    'course.saved': 'The course’s settings are saved.',
    'course.export': 'The course’s map as a file:',
    'course.delete': 'Delete the course',
    'course.deleteLabel': 'To delete the course and every pin on its map, type its address: {slug}',
    'course.deleted': '{course} is deleted.',
    'course.embed': 'Put the map on a course page',
    'course.embed.text': 'Paste this into the page: it shows the map, kept current, to anyone who opens the page.',
    'course.embed.needsLink': 'Only a map readable by anyone with its address can be put on another page: choose that under “Who can see the map”.',
    'course.embed.label': 'Code for the page',
    // A course's map on another site's page (an iframe).
    'embed.open': 'Open the map in On The Map',
    'embed.membersOnly': 'This course’s map is for its members only. Its instructor can make it readable by anyone with its address.',
    // Joining a course by its invite link.
    'join.logInFirst': 'Log in or create an account to join the course {course}.',
    'join.joined': 'You joined {course}: this is its map.',
    'join.alreadyMember': 'You are already in {course}: this is its map.',
    'join.failed': 'Could not join the course: {reason}',
    // The admin area, for the map's admins.
    'admin.title': 'Admin',
    'admin.back': 'Back to the map',
    'admin.tabs.label': 'Admin sections',
    // Four tabs side by side on a phone: keep them short.
    'admin.tabs.reports': 'Reports',
    'admin.tabs.posts': 'Posts',
    'admin.tabs.accounts': 'Accounts',
    'admin.tabs.log': 'Log',
    'admin.tabs.platforms': 'Platforms',
    'admin.section': 'Admin section',
    // Followed by two download links, "GeoJSON" and "CSV" (file formats, not translated).
    'admin.export': 'The class’s map as a file:',
    // A date and time an account last logged in, when it never has.
    'admin.never': 'never',
    // Reasons a pin was reported, in a list after admin.reportCount.
    'admin.reason.spam': 'spam',
    'admin.reason.offensive': 'offensive',
    'admin.reason.personalInformation': 'personal information',
    'admin.reason.wrongPlace': 'wrong place',
    'admin.reason.other': 'other',
    // What an admin did, in the audit log, before its details ("hid a pin: Ada Lovelace, Lyon").
    'admin.action.hideLocation': 'hid a pin',
    'admin.action.showLocation': 'showed a pin again',
    'admin.action.approveLocation': 'approved a pin',
    'admin.action.declineLocation': 'declined a pin',
    'admin.action.deleteLocation': 'deleted a pin',
    'admin.action.disableAccount': 'disabled an account',
    'admin.action.enableAccount': 'enabled an account',
    'admin.action.grantAdmin': 'made an admin',
    'admin.action.revokeAdmin': 'removed an admin',
    'admin.action.issuePasswordReset': 'issued a password reset link',
    'admin.action.dismissReports': 'dismissed reports',
    'admin.action.createCourse': 'created a course',
    'admin.action.changeCourse': 'changed a course’s settings',
    'admin.action.deleteCourse': 'deleted a course',
    'admin.action.changeInvite': 'changed a course’s invite link',
    'admin.action.addMembers': 'added a class list',
    'admin.action.removeMember': 'removed a course member',
    'admin.action.addPlatform': 'registered a learning platform',
    'admin.action.addDeployment': 'added a deployment of a learning platform',
    'admin.action.removePlatform': 'removed a learning platform',
    'admin.action.rotateToolKey': 'made a new signing key for learning platforms',
    // The admin area's Platforms section: learning platforms (Canvas, Moodle, Open edX…) that open
    // the map from their courses (LTI 1.3). The platforms' own words for their fields are kept
    // in brackets where they differ: an admin copies values from the platform's page.
    'lti.toolValues': 'What a learning platform asks of this map',
    'lti.toolValues.hint': 'Paste these into the platform’s form for adding an LTI 1.3 tool.',
    'lti.needsPublicURL': 'Start the server with its public address (--public-url) to show these values: a platform needs full addresses.',
    'lti.platforms': 'Registered platforms',
    'lti.noPlatforms': 'No learning platform is registered yet.',
    'lti.platform.details': 'Client ID {clientId} · deployments {deployments}',
    'lti.addDeployment': 'Another deployment ID',
    'lti.add': 'Add',
    'lti.deploymentAdded': 'Deployment added to {name}.',
    'lti.remove': 'Remove',
    'lti.confirmRemove': 'Press again: its launches stop',
    'lti.removed': '{name} was removed. Its courses and pins stay.',
    'lti.addPlatform': 'Register a platform',
    'lti.addPlatform.hint': 'Once the tool is added there, the platform shows these values for it.',
    'lti.field.name': 'Name, as people call it',
    'lti.field.issuer': 'Issuer (platform ID)',
    'lti.field.clientId': 'Client ID',
    'lti.field.deploymentIds': 'Deployment ID (several: separated by spaces)',
    'lti.field.authorizationUrl': 'Authentication request URL (OpenID Connect authorization)',
    'lti.field.jwksUrl': 'Public keyset URL',
    'lti.field.tokenUrl': 'Access token URL',
    'lti.register': 'Register',
    'lti.registered': '{name} is registered: its courses can open the map now.',
    'lti.keys': 'This map’s signing keys',
    'lti.key.signs': 'Signs',
    'lti.key.made': 'Made {when}',
    'lti.key.retired': 'Made {when}; replaced, still published for a week',
    'lti.rotate': 'Make a new signing key',
    'lti.confirmRotate': 'Press again to replace the key',
    'lti.rotated': 'A new key signs now; the one before stays published for a week.',
    // {action}: one of admin.action.*; {detail}: what it was done to, as the server recorded it.
    'admin.logEntry': '{action}: {detail}',
    // A badge on a hidden pin.
    'admin.badge.hidden': 'hidden',
    // A badge on a pin that waits for an instructor's approval.
    'admin.badge.awaiting': 'waiting for approval',
    'admin.badge.admin': 'admin',
    'admin.badge.disabled': 'disabled',
    // Buttons on a pin.
    'admin.showAgain': 'Show again',
    'admin.hide': 'Hide',
    // On a pin that waits for approval: show it, or keep it hidden.
    'admin.approve': 'Approve',
    'admin.decline': 'Decline',
    'admin.delete': 'Delete',
    // A dangerous button's label after the first press, for five seconds.
    'admin.confirmDelete': 'Press again to delete',
    // {name}: the student whose pin it is.
    'admin.shownAgain': '{name}’s pin shows again.',
    'admin.hidden': '{name}’s pin is hidden from everyone but them.',
    'admin.approved': '{name}’s pin is on the map.',
    'admin.declined': '{name}’s pin stays hidden from everyone but them.',
    'admin.deleted': '{name}’s pin is deleted.',
    // The Reports section.
    'admin.noReports': 'No open reports.',
    'admin.reportedPins': 'Reported pins',
    'admin.pinDeleted': 'A pin since deleted',
    // The course page's Reports tab, above the reported pins.
    'course.approvals': 'Waiting for approval',
    'course.approvals.none': 'No pins wait for approval.',
    // {when}: a date.
    'course.approvals.written': 'Written on {when}',
    // {count} reports; {reasons} is a list of admin.reason.* ("spam, offensive").
    'admin.reportCount': { one: '{count} report: {reasons}', other: '{count} reports: {reasons}' },
    'admin.dismiss': 'Dismiss',
    'admin.dismissed': 'Reports dismissed; the pin stays.',
    // The Posts section.
    'admin.onlyHidden': 'Only hidden pins',
    'admin.noHiddenPins': 'No hidden pins.',
    'admin.noPosts': 'No posts yet.',
    'admin.posts': 'Posts',
    // {when}: a date and time.
    'admin.updated': 'Updated {when}',
    // The Accounts section.
    'admin.findAccount': 'Find an account',
    'admin.searchPlaceholder': 'Name or email',
    'admin.search': 'Search',
    'admin.noAccounts': 'No account matches.',
    'admin.accounts': 'Accounts',
    // {signedUp} and {lastLogin}: dates and times (or admin.never); followed by " · " and admin.pin or admin.noPin.
    'admin.accountDates': 'Signed up {signedUp} · last login {lastLogin}',
    // {place}: where the account's pin is.
    'admin.pin': 'pin: {place}',
    'admin.pinHidden': 'pin: {place} (hidden)',
    'admin.noPin': 'no pin',
    'admin.resetLink': 'Password reset link',
    // {email}: the account's; {hours}: how long the link works (72); {url}: the link.
    'admin.resetLinkMade': 'Send this link to {email}; it sets a new password once, within {hours} hours: {url}',
    'admin.makeAdmin': 'Make admin',
    'admin.removeAdmin': 'Remove admin',
    // {name}: the account's first and last name.
    'admin.nowAdmin': '{name} is now an admin.',
    'admin.noLongerAdmin': '{name} is no longer an admin.',
    'admin.enable': 'Enable',
    'admin.disable': 'Disable',
    'admin.confirmDisable': 'Press again to disable',
    'admin.enabled': '{name} can log in again.',
    'admin.disabled': '{name} is disabled and logged out everywhere.',
    // The account change was not made: the password question was cancelled.
    'admin.notChanged': 'Nothing was changed: changing an account needs your password.',
    // The admin's account was made by a provider's sign-in and has no password to type again.
    'admin.signInAgain': 'Your account signs in with a provider and has no password to type. To change accounts, log out, sign in again and try once more.',
    // The Log section: a table.
    'admin.noActions': 'No admin has acted yet.',
    'admin.log.caption': 'Audit log, newest first',
    'admin.log.when': 'When',
    'admin.log.who': 'Who',
    'admin.log.what': 'What',

    // What went wrong, wherever the page says it (under a form, in the status line, in a popup).
    'error.network': 'Can’t reach the server. Check your internet connection and try again.',
    'error.unreadable': 'The server sent an answer the app could not read. Try again later.',
    'error.unexpected': 'Something went wrong. Try again.',
    'error.session': 'Your session has ended. Please log in again.',
    // {count}: seconds to wait.
    'error.throttled': { one: 'Too many attempts. Try again in {count} second.', other: 'Too many attempts. Try again in {count} seconds.' },
    'error.throttledSoon': 'Too many attempts. Try again in a minute.',
    'error.unavailable': 'The server is starting up. Try again in a few seconds.',
    // {status}: the HTTP status code (500…), to quote to whoever runs the map.
    'error.server': 'The server ran into a problem ({status}). Try again later.',
    'error.timeout': 'The request took too long to arrive. Try again.',
    'error.tooLarge': 'That is too much to send at once.',
    // {status}: the HTTP status code (400…).
    'error.refused': 'The request was refused ({status}).',
    'error.credentials': 'That email and password don’t match an account. Check them and try again.',
    'error.wrongPassword': 'That isn’t your password. Check it and try again.',
    'error.accountDisabled': 'This account has been disabled by an admin of this map. Ask them if you think this is a mistake.',
    'error.emailTaken': 'An account with that email already exists. Log in instead.',
    'error.notOwner': 'Only the owner of this pin (or an admin) may change it.',
    'error.adminOnly': 'Only an admin of this map may do this.',
    'error.courseArchived': 'This course is archived: its map can be read but no longer changed.',
    'error.notInCourse': 'You are not in this course (any more): here is the map you can see.',
    'error.courseGone': 'This course no longer exists.',
    'error.inviteNotValid': 'This invite link no longer works. Ask your instructor for the course’s current link.',
    'error.instructorsOnly': 'Only this course’s instructors may do this.',
    'error.courseSlugTaken': 'Another course already has this address: choose another.',
    'error.lastInstructor': 'A course keeps at least one instructor.',
    'error.forbidden': 'That was refused. Reload the page and try again.',
    'error.notFound': 'It isn’t there any more: it may have been deleted. Refresh and try again.',
    'error.lastAdmin': 'This is the last active admin: make another account an admin first.',
    // An account change refused until the admin types their password again.
    'error.passwordUnconfirmed': 'Changing an account needs your password typed again. Try once more.',
    'error.conflict': 'That clashes with a change made meanwhile. Refresh and try again.',
    'error.inProgress': 'Your last request is still being answered. Try again in a moment.',
    'error.outcomeUnknown': 'The server stopped while answering, so it may or may not have made the change. Refresh to check before trying again.',
    // A field the page or the server refused.
    'error.validation.firstName': 'Enter your first name.',
    'error.validation.lastName': 'Enter your last name.',
    'error.validation.email': 'Enter a valid email address, like name@example.com.',
    // {min}, {max}: the shortest and longest passwords allowed (8, 128).
    'error.validation.passwordShort': 'Choose a password of at least {min} characters.',
    'error.validation.passwordLong': 'Choose a password of at most {max} characters.',
    'error.validation.passwordLength': 'Choose a password of {min} to {max} characters.',
    // The server refused the password: too common, or a run such as aaaaaaaa or 12345678.
    'error.validation.password': 'Choose a password that is harder to guess: not one of the most common passwords, and not a run of repeated or consecutive characters like aaaaaaaa or 12345678.',
    'error.validation.linkMissing': 'Enter a link to share, such as your portfolio or LinkedIn page.',
    // {max}: the longest link allowed (2,048).
    'error.validation.linkTooLong': 'That link is too long (at most {max} characters).',
    'error.validation.linkScheme': 'Only web links (starting with http:// or https://) can be shared.',
    'error.validation.link': 'That doesn’t look like a web address. Try something like https://example.com.',
    'error.validation.place': 'That place can’t be saved as written. Shorten it or write it differently.',
    'error.validation.coordinates': 'That place’s position was refused. Pick another match.',
    'error.validation.resetLink': 'This link has expired or was already used: ask an admin of the map for a new one.',
    'error.validation.courseSlug': 'A course’s address is 2 to 48 lower-case letters (a–z), digits and single hyphens, such as cs101-spring.',
    'error.validation.courseTitle': 'Give the course a title, up to 120 characters.',
    'error.validation.classList': 'The list holds no email address.',
    'error.validation.confirmCourse': 'Type the course’s address exactly to delete it.',
    'error.validation.platform': 'Give the platform’s issuer, client ID and at least one deployment ID, as the platform shows them. A platform is registered once for each client ID.',
    'error.validation.platformURL': 'The platform’s addresses must start with https:// (plain http:// only on this machine).',
    'error.validation.gradePosting': 'No learning platform course linked to this map offers its grade book: open the map from the platform’s course first.',
    'error.validation.reason': 'Choose a reason from the list.',
    'error.validation.ownPin': 'You can’t report your own pin.',
    'error.validation.other': 'Something sent was refused. Check what you entered and try again.',
    // A sign-in at a provider came back without logging anyone in; {provider} is its name, or error.signIn.yourProvider
    // (lower case: it never starts a sentence).
    'error.signIn.yourProvider': 'your sign-in provider',
    'error.signIn.cancelled': 'Signing in with {provider} was cancelled. Try again, or log in with your email and password.',
    'error.signIn.providerUnavailable': 'Can’t reach {provider} right now. Try again in a few minutes, or log in with your email and password.',
    'error.signIn.expired': 'That sign-in took too long or was already used. Sign in with {provider} again.',
    'error.signIn.invalidToken': 'The answer from {provider} could not be verified, so you were not logged in. Try again; if it keeps happening, tell whoever runs this map.',
    'error.signIn.noEmail': 'Your email address was not shared by {provider}, and this map needs it to find your account. Allow it when {provider} asks.',
    'error.signIn.emailUnverified': 'Your email address is not verified by {provider}, so it can’t be matched to an account here. Verify it with {provider} first, or log in with your email and password.',
    'error.signIn.disabled': 'This account has been disabled by an admin of this map.',
    'error.signIn.throttled': 'Too many sign-ins from your network just now. Wait a minute and try again.',
    'error.signIn.unknownProvider': 'That way of signing in is not set up on this map.',
    'error.signIn.failed': 'Signing in with {provider} did not work, on our side. Try again in a minute, or log in with your email and password.',
  },
};
