"""Courses in the browser: an instructor starts a course from the Courses page, turns its invite
link on and shows its QR code; a student who follows the link, logged out, is asked to sign up and
lands on the course's map, joined; the top bar switches between their maps and the choice is
remembered; the instructor's class list shows who has posted; a post goes to the course shown; a
student's removal sends them back to the map they can see; a map made readable by link is framed
on another site's page while the app itself refuses to be; the Hours tab shows the class by time
zone and the hours that suit it. axe checks the new screens, in light
and dark; an instructor answers the reports on their course, and approves a student's pin before
the class sees it (the student sees theirs marked waiting)."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_case import BrowserTest, PASSWORD
from harness import CoursePage


class Courses(BrowserTest):
    own_server = True
    teacher = "course.teacher@example.com"
    student = "course.student@example.com"

    def course_status(self, containing):
        return self.wait.until(lambda d: containing in d.find_element(By.ID, "course-status").text)

    def course_notice(self, containing):
        return self.wait.until(lambda d: containing in d.find_element(By.ID, "course-notice").text)

    def test_1_an_instructor_starts_a_course_and_turns_its_invite_link_on(self):
        self.sign_up_and_log_in("Tess", "Teacher", self.teacher)
        self.visible("courses-link").click()
        self.visible("courses-screen")
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#courses-list [data-course='default']"))
        self.axe("courses")
        self.type_into("course-title", "Géo 101, Spring!")
        self.assertEqual(self.by_id("course-slug").get_attribute("value"), "geo-101-spring", "the address is suggested from the title")
        self.type_into("course-slug", "Bad Slug")
        self.by_id("course-create").click()
        self.wait.until(lambda d: d.find_element(By.ID, "course-slug-error").is_displayed())
        self.assertEqual(self.by_id("course-slug").get_attribute("aria-invalid"), "true")
        self.type_into("course-slug", "geo101")
        self.by_id("course-create").click()

        # The new course's invite page: the link is off until its instructor turns it on.
        self.wait.until(lambda d: d.current_url.endswith("#/course/geo101/invite"))
        self.wait.until(lambda d: "Géo 101, Spring!" in d.find_element(By.ID, "course-screen-title").text)
        turn_on = self.wait.until(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#course-content button")
                                                  if b.text == "Turn the link on"), None))
        turn_on.click()
        self.course_status("students can join")
        link = self.visible("invite-link").get_attribute("value")
        self.assertRegex(link, r"^http://127\.0\.0\.1:\d+/c/geo101/join/[A-Za-z0-9_-]{22}$")
        qr = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#course-content svg.qr-code"))
        self.assertEqual(qr.get_attribute("aria-label"), "QR code of the invite link")
        self.assertGreater(qr.size["width"], 150, "big enough for a projector's camera distance")
        self.axe("course invite")
        type(self).invite = link

    def test_2_a_new_student_follows_the_link_signs_up_and_lands_on_the_course_map(self):
        self.driver.delete_all_cookies()
        self.driver.get(self.invite)
        self.login_ready()
        notice = self.visible("login-join-notice")
        self.assertIn("geo101", notice.text)
        self.visible("signup-link").click()
        self.assertIn("geo101", self.visible("signup-join-notice").text)
        self.type_into("signup-first", "Sam")
        self.type_into("signup-last", "Student")
        self.type_into("signup-email", self.student)
        self.type_into("signup-password", PASSWORD)
        self.by_id("signup-button").click()
        self.wait_for_map()
        self.course_notice("You joined Géo 101, Spring!")
        select = Select(self.visible("course-select"))
        self.assertEqual(select.first_selected_option.text, "Géo 101, Spring!")
        self.assertEqual({option.get_attribute("value") for option in select.options}, {"default", "geo101"})
        self.assertEqual(self.driver.get_cookie("onthemap-course")["value"], "geo101")

    def test_3_a_post_goes_to_the_course_shown_and_the_switch_is_remembered(self):
        token = self.server.sign_up("Dee", "Fault", "dee.fault@example.com")
        self.server.post_location(token, "Oslo, Norway", "https://example.org/oslo", 59.91, 10.75)
        # The student posts on the course's map, through the API at the course's path.
        status, body = self.server.call("POST", "/v1/session", {"udacity": {"username": self.student, "password": PASSWORD}})
        self.assertEqual(status, 200)
        session = body["session"]["id"]
        status, _ = self.server.call("POST", "/c/geo101/v1/StudentLocation", {
            "mapString": "Quito, Ecuador", "mediaURL": "https://example.org/quito", "latitude": -0.18, "longitude": -78.47}, session)
        self.assertEqual(status, 200)
        self.driver.refresh()
        self.wait_for_map()
        self.wait.until(lambda d: d.find_element(By.ID, "map").get_attribute("data-pins") == "1")
        self.visible("tab-list").click()
        self.wait.until(lambda d: "Quito" in d.find_element(By.ID, "post-list").text)
        self.assertNotIn("Oslo", self.by_id("post-list").text, "the default course's posts stay on its own map")

        Select(self.visible("course-select")).select_by_value("default")
        self.wait.until(lambda d: "Oslo" in d.find_element(By.ID, "post-list").text)
        self.assertNotIn("Quito", self.by_id("post-list").text)
        self.driver.refresh()
        self.wait_for_map()
        self.assertEqual(Select(self.visible("course-select")).first_selected_option.get_attribute("value"), "default")
        Select(self.visible("course-select")).select_by_value("geo101")
        self.wait.until(lambda d: "Quito" in d.find_element(By.ID, "post-list").text)

    def test_4_the_instructor_sees_who_has_posted_and_adds_a_class_list(self):
        self.log_in_afresh(self.teacher)
        self.visible("app-screen")
        self.driver.get(self.server.base + "/#/course/geo101/roster")
        self.wait.until(lambda d: d.find_element(By.ID, "course-content").get_attribute("data-section") == "roster")
        self.wait.until(lambda d: "1 of 1 student has posted." in d.find_element(By.ID, "roster-summary").text)
        row = self.driver.find_element(By.CSS_SELECTOR, "#course-content [data-posted='true']")
        self.assertIn("Sam Student", row.text)
        self.assertIn("Quito, Ecuador", row.text)
        self.type_into("class-list", "Ann Other <ann.other@example.com>\nnot an email line")
        next(b for b in self.driver.find_elements(By.CSS_SELECTOR, "#course-content button") if b.text == "Add").click()
        self.course_status("Joining when they sign up: 1")
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#course-content [data-email='ann.other@example.com']"))
        self.axe("course roster")

    def test_5_in_dark_mode_the_course_pages_pass_axe(self):
        self.emulate_color_scheme("dark")
        try:
            self.driver.get(self.server.base + "/#/course/geo101/settings")
            self.wait.until(lambda d: d.find_element(By.ID, "course-content").get_attribute("data-section") == "settings")
            self.axe("course settings, dark")
            self.driver.get(self.server.base + "/#/course/geo101/invite")
            self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#course-content svg.qr-code"))
            self.axe("course invite, dark")
        finally:
            self.emulate_color_scheme("light")

    def test_6_a_removed_student_is_shown_the_map_they_can_see(self):
        status, body = self.server.call("POST", "/v1/session", {"udacity": {"username": self.teacher, "password": PASSWORD}})
        self.assertEqual(status, 200, body)
        teacher = body["session"]["id"]
        status, roster = self.server.call("GET", "/c/geo101/v1/course/members", token=teacher)
        student_key = next(member["key"] for member in roster["results"] if member["email"] == self.student)
        self.assertEqual(self.server.call("DELETE", f"/c/geo101/v1/course/members/{student_key}", token=teacher)[0], 200)
        # A new visit on a browser that last showed the course's map.
        self.driver.delete_all_cookies()
        self.open_app()
        self.driver.add_cookie({"name": "onthemap-course", "value": "geo101", "path": "/"})
        self.driver.refresh()
        self.log_in(self.student)
        self.wait_for_map()
        self.course_notice("You are not in this course")
        self.assertEqual(self.driver.get_cookie("onthemap-course")["value"], "default")
        self.visible("tab-list").click()
        self.wait.until(lambda d: "Oslo" in d.find_element(By.ID, "post-list").text)

    def test_7_a_map_readable_by_link_is_framed_on_a_course_page_and_the_app_is_not(self):
        self.log_in_afresh(self.teacher)
        self.visible("app-screen")
        self.driver.get(self.server.base + "/#/course/geo101/settings")
        self.wait.until(lambda d: "Only a map readable by anyone" in d.find_element(By.ID, "course-content").text)
        self.driver.find_element(By.CSS_SELECTOR, "#course-settings input[name=visibility][value=link]").click()
        self.driver.find_element(By.CSS_SELECTOR, "#course-settings button[type=submit]").click()
        self.course_status("settings are saved")
        code = self.visible("embed-code").get_attribute("value")
        self.assertRegex(code, r'^<iframe src="http://127\.0\.0\.1:\d+/c/geo101/embed" title="Géo 101, Spring!"')
        self.axe("course settings with the embed code")

        status, body = self.server.call("POST", "/v1/session", {"udacity": {"username": self.teacher, "password": PASSWORD}})
        teacher = body["session"]["id"]
        self.assertEqual(self.server.call("POST", "/c/geo101/v1/StudentLocation", {
            "mapString": "Lima, Peru", "mediaURL": "https://example.org/lima", "latitude": -12.05, "longitude": -77.04}, teacher)[0], 200)
        page = CoursePage([f"{self.server.base}/c/geo101/embed", f"{self.server.base}/"])
        try:
            self.driver.delete_all_cookies()
            self.driver.get(page.base)
            self.driver.switch_to.frame("frame0")
            self.wait.until(lambda d: d.find_element(By.ID, "map").get_attribute("data-ready") == "true")
            self.assertEqual(self.by_id("map").get_attribute("data-pins"), "1", "the removed student's pin went with them")
            self.assertEqual(self.by_id("embed-course").text, "Géo 101, Spring!")
            self.assertTrue(self.by_id("embed-course").is_displayed() and self.by_id("embed-open").is_displayed(), "title and link beside the map")
            # Kept current: another member's post arrives without a reload.
            sam = self.server.sign_up("Ola", "Member", "ola.member@example.com")
            roster = self.server.call("POST", "/c/geo101/v1/course/members", {"list": "ola.member@example.com"}, teacher)
            self.assertEqual(roster[0], 200, roster)
            self.assertEqual(self.server.call("POST", "/c/geo101/v1/StudentLocation", {
                "mapString": "Accra, Ghana", "mediaURL": "https://example.org/accra", "latitude": 5.6, "longitude": -0.19}, sam)[0], 200)
            self.wait.until(lambda d: d.find_element(By.ID, "map").get_attribute("data-pins") == "2")
            self.axe("embedded map")
            self.driver.switch_to.default_content()
            self.driver.switch_to.frame("frame1")
            self.assertEqual(self.driver.find_elements(By.ID, "app-screen"), [], "the app refuses to be framed")
        finally:
            self.driver.switch_to.default_content()
            page.stop()

    def test_8_the_hours_tab_shows_the_class_by_time_zone_and_the_hours_that_suit_it(self):
        self.log_in_afresh(self.teacher)
        self.visible("app-screen")
        self.driver.get(self.server.base + "/#/course/geo101/hours")
        self.wait.until(lambda d: d.find_element(By.ID, "course-content").get_attribute("data-section") == "hours")
        # The one student with a pin posted in Accra; the instructor's pin in Lima is not the class's.
        rows = self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#class-zones tbody tr"))
        self.assertEqual([row.get_attribute("data-zone") for row in rows], ["Africa/Accra"])
        self.assertIn("UTC+00:00", rows[0].text)
        windows = self.driver.find_elements(By.CSS_SELECTOR, "#class-hours li")
        self.assertEqual(len(windows), 3)
        self.assertTrue(all(window.text.endswith("suits 1 of 1") for window in windows), [w.text for w in windows])
        self.assertNotIn("null", self.by_id("course-content").text)
        self.axe("course hours")

    def test_9_an_instructor_answers_the_reports_on_their_course(self):
        def token(email):
            status, body = self.server.call("POST", "/v1/session", {"udacity": {"username": email, "password": PASSWORD}})
            self.assertEqual(status, 200, body)
            return body["session"]["id"]
        listed = {pin["mapString"]: pin["objectId"] for pin in self.server.call("GET", "/c/geo101/v1/StudentLocation")[1]["results"]}
        lima, accra = listed["Lima, Peru"], listed["Accra, Ghana"]
        self.assertEqual(self.server.call("POST", "/v1/reports", {"objectId": lima, "reason": "wrong-place"}, token("ola.member@example.com"))[0], 201)
        self.assertEqual(self.server.call("POST", "/v1/reports", {"objectId": accra, "reason": "spam"}, token(self.teacher))[0], 201)
        self.log_in_afresh(self.teacher)
        self.visible("app-screen")
        self.driver.get(self.server.base + "/#/course/geo101/reports")
        item = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f"#course-content [data-object-id='{lima}']"))
        self.assertIn("wrong place", item.text)
        self.axe("course reports")
        # Hiding the pin answers its reports: it leaves the list, and the course's map.
        next(b for b in item.find_elements(By.TAG_NAME, "button") if b.text == "Hide").click()
        self.course_status("hidden")
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, f"#course-content [data-object-id='{lima}']"))
        self.assertNotIn(lima, [pin["objectId"] for pin in self.server.call("GET", "/c/geo101/v1/StudentLocation")[1]["results"]])
        item = self.driver.find_element(By.CSS_SELECTOR, f"#course-content [data-object-id='{accra}']")
        next(b for b in item.find_elements(By.TAG_NAME, "button") if b.text == "Dismiss").click()
        self.wait.until(lambda d: "No open reports." in d.find_element(By.ID, "course-content").text)
        self.assertIn(accra, [pin["objectId"] for pin in self.server.call("GET", "/c/geo101/v1/StudentLocation")[1]["results"]])

    def test_9b_the_log_tab_shows_what_was_done_to_the_course(self):
        self.driver.get(self.server.base + "/#/course/geo101/log")
        self.wait.until(lambda d: d.find_element(By.ID, "course-content").get_attribute("data-section") == "log")
        actions = [row.get_attribute("data-action") for row in self.driver.find_elements(By.CSS_SELECTOR, "#course-content tbody tr")]
        for action in ("create-course", "change-invite", "add-members", "remove-member", "change-course", "hide-location", "dismiss-reports"):
            self.assertIn(action, actions)
        self.assertIn("created a course", self.by_id("course-content").text)
        self.axe("course log")

    def test_9c_an_instructor_approves_a_students_pin_before_the_class_sees_it(self):
        status, body = self.server.call("POST", "/v1/session", {"udacity": {"username": self.teacher, "password": PASSWORD}})
        self.assertEqual(status, 200, body)
        teacher = body["session"]["id"]
        # The instructor asks for approval on the Settings tab.
        self.log_in_afresh(self.teacher)
        self.visible("app-screen")
        self.driver.get(self.server.base + "/#/course/geo101/settings")
        checkbox = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#course-settings input[name='approvalRequired']"))
        self.assertFalse(checkbox.is_selected())
        checkbox.click()
        self.by_id("course-settings").find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        self.course_status("settings are saved")
        self.assertTrue(self.server.call("GET", "/c/geo101/v1/course", token=teacher)[1]["approvalRequired"])

        # A student's pin waits: not on the course's map, shown to them marked waiting.
        pia = "pia.pending@example.com"
        self.server.sign_up("Pia", "Pending", pia, password=PASSWORD)
        self.assertEqual(self.server.call("POST", "/c/geo101/v1/course/members", {"list": pia, "role": "student"}, teacher)[0], 200)
        status, body = self.server.call("POST", "/v1/session", {"udacity": {"username": pia, "password": PASSWORD}})
        status, saved = self.server.call("POST", "/c/geo101/v1/StudentLocation", {
            "mapString": "Nairobi, Kenya", "mediaURL": "https://example.org/nairobi", "latitude": -1.29, "longitude": 36.82}, body["session"]["id"])
        self.assertEqual(status, 200, saved)
        pin = saved["objectId"]
        self.assertNotIn(pin, [p["objectId"] for p in self.server.call("GET", "/c/geo101/v1/StudentLocation", token=teacher)[1]["results"]])
        self.log_in_afresh(pia)
        self.wait_for_map()
        Select(self.visible("course-select")).select_by_value("geo101")
        notice = self.visible("awaiting-notice")
        self.assertIn("waits for an instructor", notice.text)
        self.assertTrue(self.by_id("hidden-notice").get_attribute("hidden"))

        # The instructor sees it waiting on the Class tab, and approves it on the Reports tab.
        self.log_in_afresh(self.teacher)
        self.visible("app-screen")
        self.driver.get(self.server.base + "/#/course/geo101/roster")
        self.wait.until(lambda d: "1 pin waits for your approval" in d.find_element(By.ID, "course-content").text)
        row = next(r for r in self.driver.find_elements(By.CSS_SELECTOR, "#course-content [data-key]") if "Pia Pending" in r.text)
        self.assertEqual(row.find_element(By.CSS_SELECTOR, ".badge.warn").text.lower(), "waiting for approval")
        self.assertTrue(any(b.text == "Approve" for b in row.find_elements(By.TAG_NAME, "button")))
        self.driver.get(self.server.base + "/#/course/geo101/reports")
        item = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f"#approvals [data-object-id='{pin}']"))
        self.assertIn("Nairobi, Kenya", item.text)
        self.axe("course approvals")
        next(b for b in item.find_elements(By.TAG_NAME, "button") if b.text == "Approve").click()
        self.course_status("is on the map")
        self.wait.until(lambda d: "No pins wait for approval." in d.find_element(By.ID, "course-content").text)
        self.assertIn(pin, [p["objectId"] for p in self.server.call("GET", "/c/geo101/v1/StudentLocation", token=teacher)[1]["results"]])
        actions = [entry["action"] for entry in self.server.call("GET", "/c/geo101/v1/course/audit", token=teacher)[1]["results"]]
        self.assertEqual(actions[0], "approve-location")


class CoursesStartedByAdmins(BrowserTest):
    """On a server whose admins alone start courses (`--course-creators admins`), a student's
    Courses page says whom to ask instead of offering a form the server would refuse."""
    own_server = True
    server_args = ("--course-creators", "admins")

    def test_the_courses_page_says_whom_to_ask(self):
        self.sign_up_and_log_in("Stu", "Dent", "stu.dent@example.com")
        self.visible("courses-link").click()
        self.visible("courses-screen")
        self.assertIn("ask one to start yours", self.visible("course-new-closed").text)
        self.assertFalse(self.by_id("course-form").is_displayed())
        self.axe("courses, admins start them")
