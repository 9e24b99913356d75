// Sends a Deep Linking answer back to the learning platform as soon as its page is shown
// (LTI/LTIPage.swift, `returnToPlatform`): the form holds the signed link to the chosen map.
document.getElementById('lti-deep-link-return').submit();
