"""A real LTI 1.3 platform for the LTI tests, on this machine: PyPI's lti1p3platform (registration,
OpenID Connect login initiation, message launch, deep linking, Names and Role Provisioning,
Assignments and Grades, access tokens) served by FastAPI, with the glue that package leaves to the
platform that uses it written here. (Not named platform.py: that would hide Python's own
`platform` module from uvicorn and Selenium, which import it.)

  .build/venv-lti/bin/python scripts/test/lti/lti_platform.py [--client-id ID] [--deployment-id ID]

It listens on a free port of the loopback addresses and names itself `http://localhost:PORT`
(while the tool under test is at `http://127.0.0.1:…`, so the two are different sites and the
tool inside the platform's course page is a third-party frame), then prints one JSON line: its
port, issuer, client id, deployment id and URLs, what `onthemap lti platform add` asks for. It runs
until killed.

What it serves (scripts/test/lti/check_launches.py drives it; `kind` is resource or deep-linking,
`presentation` window or iframe, `broken` one of BROKEN below):
  /jwks                                the platform's public key set (one RSA key of its own)
  /authorize                           the OpenID Connect authorization endpoint of the launch
  /token                               OAuth 2.0 client_credentials with the tool's signed assertion
  /nrps/{context}/memberships          Names and Role Provisioning: the context's class list
  /ags/{context}/lineitems[/{id}[/scores|/results]]   Assignments and Grades
  /deep-link/return                    where the tool posts its deep-linking answer (`JWT`)
  /test/tool                           POST {"origin"}: the tool under test; forgets every record
  /test/launch?user=&context=&kind=&link=&presentation=&role=&broken=
                                       starts a launch: the browser goes to the tool's login initiation
  /test/course?user=&context=&link=    the course page, the launch in an <iframe> as Canvas embeds it
  /test/state                          JSON of what it recorded
  /test/cookie-probe, /test/cookie/*   the third-party cookie probe of the checks
"""
import argparse
import base64
import errno
import html
import json
import re
import secrets
import socket
import sys
import threading
import time
import urllib.parse
from contextlib import asynccontextmanager

import jwt
import uvicorn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from lti1p3platform import exceptions as lti_errors
from lti1p3platform.framework.fastapi.message_launch import FastapiMessageLaunch
from lti1p3platform.framework.fastapi.oidc_login import FastAPIOIDCLogin
from lti1p3platform.lineitem import TLineItem
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request as PackageRequest
from lti1p3platform.response import generate_next_link
from lti1p3platform.score import ActivityProgress, GradeProgress, UpdateScoreStatus
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService

ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
AGS_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"
# Either lets a tool read line items.
LINE_ITEM_READERS = [AGS_SCOPE + "lineitem", AGS_SCOPE + "lineitem.readonly"]
SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json"
JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
# What Canvas puts on the iframe of an LTI tool (its `allow` list), so that the tool in the frame
# may ask for what it would there.
CANVAS_IFRAME_ALLOW = ("geolocation *; microphone *; camera *; midi *; encrypted-media *; autoplay *; "
                       "clipboard-write *; display-capture *")

# The people of the platform, by a short name the tests use: `sub` (also the login hint), names, email.
PEOPLE = {
    "ines": {"sub": "u-1001-ines", "given_name": "Ines", "family_name": "Instructor", "email": "ines@platform.example"},
    "lea": {"sub": "u-1002-lea", "given_name": "Lea", "family_name": "Learner", "email": "lea@platform.example"},
    "bo": {"sub": "u-1003-bo", "given_name": "Bo", "family_name": "Neverlaunched", "email": "bo@platform.example"},
    "cy": {"sub": "u-1004-cy", "given_name": "Cy", "family_name": "Neverlaunched", "email": "cy@platform.example"},
    # Every broken launch of the tests is hers: one taken would make her account and her course.
    "nia": {"sub": "u-1005-nia", "given_name": "Nia", "family_name": "Newcomer", "email": "nia@platform.example"},
}
# Its courses (LTI contexts) with their class lists. The second has had no instructor's launch in
# the tests: a learner's launch there is told to wait.
CONTEXTS = {
    "ctx-geo-101": {"label": "GEO 101", "title": "Geography of Home",
                    "members": {"ines": "Instructor", "lea": "Learner", "bo": "Learner", "cy": "Learner"}},
    "ctx-hist-202": {"label": "HIST 202", "title": "History Elsewhere",
                     "members": {"ines": "Instructor", "nia": "Instructor", "lea": "Learner", "bo": "Learner"}},
}
# The deliberately broken launches, chosen per launch (`broken=`).
BROKEN = {
    "bad-signature": "the token's claims changed after signing (made an instructor), the signature kept",
    "foreign-key": "signed by a key the platform does not publish, under the kid of the one it does",
    "unknown-kid": "signed by a key the platform does not publish, under that key's own kid",
    "wrong-aud": "made for another client id",
    "expired": "its exp ten minutes in the past",
    "replayed-nonce": "the nonce of the launch before it",
    "wrong-state": "posted back with another state than the tool's",
    "unknown-deployment": "from a deployment the tool does not know",
    "no-context": "no context claim",
}


def key_pair():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


class Platform:
    """The platform's settings and everything it recorded, shared by the requests (one lock)."""

    def __init__(self, port, client_id, deployment_id):
        self.port = port
        self.issuer = f"http://localhost:{port}"
        self.client_id = client_id
        self.deployment_id = deployment_id
        self.private_key, self.public_key = key_pair()
        # A key of nobody's: the broken launches sign with it.
        self.stray_private_key, _ = key_pair()
        self.lock = threading.Lock()
        self.tool = None
        self.reset()

    def reset(self):
        self.launches = {}        # lti_message_hint -> what the launch is
        self.sent = []            # launches answered at /authorize, oldest first
        self.refused = []         # what /authorize, /token, the services and the deep-link return refused
        self.tokens = []          # access tokens issued
        self.nrps_calls = []
        self.line_items = {}      # context -> [line item]
        self.scores = []
        self.deep_link_requests = {}  # the `data` of a deep-linking launch -> its context and deployment
        self.deep_link_items = []
        self.resource_links = {}  # resource link id -> context, title, url, custom (made by deep linking)
        self.assertion_ids = set()
        self.response_nonces = set()

    def url(self, path):
        return self.issuer + path

    def urls(self):
        return {
            "authorization_url": self.url("/authorize"), "jwks_url": self.url("/jwks"), "token_url": self.url("/token"),
            "deep_link_return_url": self.url("/deep-link/return"), "launch_url": self.url("/test/launch"),
            "course_url": self.url("/test/course"), "state_url": self.url("/test/state"),
        }

    def refuse(self, where, reason, **detail):
        with self.lock:
            self.refused.append({"where": where, "reason": reason, **detail, "at": time.time()})

    def state(self):
        with self.lock:
            return {
                "tool": self.tool, "launches": list(self.sent), "refused": list(self.refused), "tokens": list(self.tokens),
                "nrps_calls": list(self.nrps_calls), "line_items": {k: list(v) for k, v in self.line_items.items()},
                "scores": list(self.scores), "deep_link_items": list(self.deep_link_items),
                "resource_links": dict(self.resource_links),
            }


class BreakableRegistration(Registration):
    """The package's registration; `kid` can be made another key's (a launch signed by a key the
    platform does not publish, named as the one it does)."""
    _kid_override = None

    def get_kid(self):
        return self._kid_override or super().get_kid()


class PlatformConf(LTI1P3PlatformConfAbstract):
    """The package's platform configuration: the one registration of the tool under test, made
    per request from the platform's settings (so a new tool key set is fetched for each tool, and
    per launch for a broken one: its deployment, its signing key)."""

    def init_platform_config(self, platform, launch=None):
        self.platform = platform
        broken = (launch or {}).get("broken")
        tool = platform.tool or "http://127.0.0.1:1"
        registration = BreakableRegistration() \
            .set_iss(platform.issuer) \
            .set_client_id(platform.client_id) \
            .set_deployment_id("deployment-unknown-9" if broken == "unknown-deployment" else platform.deployment_id) \
            .set_launch_url(tool + "/lti/launch") \
            .set_deeplink_launch_url(tool + "/lti/launch") \
            .set_oidc_login_url(tool + "/lti/login") \
            .set_tool_key_set_url(tool + "/lti/jwks") \
            .set_platform_public_key(platform.public_key) \
            .set_platform_private_key(platform.private_key)
        if broken in ("foreign-key", "unknown-kid"):
            real_kid = registration.get_kid()
            registration.set_platform_private_key(platform.stray_private_key)
            if broken == "foreign-key":
                registration._kid_override = real_kid
        self._registration = registration
        self.set_accepted_deeplinking_types(["ltiResourceLink"])

    def get_registration_by_params(self, **kwargs):
        return self._registration

    def tool_claims(self, token):
        """A JWT from the tool, checked by the package (its kid in the tool's key set, RS256
        signature, exp) — the claims it leaves unchecked are the caller's."""
        return self.tool_validate_and_decode(token)


class OIDCLogin(FastAPIOIDCLogin):
    """The package's third-party login initiation; the message hint names the launch."""

    def set_lti_message_hint(self, **kwargs):
        self._lti_message_hint = kwargs["hint"]


class MessageLaunch(FastapiMessageLaunch, LTIAdvantageMessageLaunchAbstract):
    """The package's launch (its FastAPI form post, with LTI Advantage's deep linking, NRPS and AGS
    claims): the claims come from the launch that the message hint names; a broken launch is
    broken here, after the package built it."""

    def __init__(self, request, conf, platform, launch):
        super().__init__(request, conf)
        self.platform = platform
        self.launch = launch

    def prepare_launch(self, preflight_response):
        platform, launch = self.platform, self.launch
        person = PEOPLE[launch["user"]]
        context_id = launch["context"]
        context = CONTEXTS[context_id]
        self.set_user_data(person["sub"], [ROLE + launch["role"]],
                           full_name=f"{person['given_name']} {person['family_name']}", email_address=person["email"])
        self.set_extra_claims({
            "given_name": person["given_name"], "family_name": person["family_name"],
            "https://purl.imsglobal.org/spec/lti/claim/tool_platform": {
                "guid": f"platform-{platform.port}", "name": "LTI test platform", "product_family_code": "lti1p3platform",
                "version": "0.1.8"},
        })
        if launch["broken"] != "no-context":
            self.set_launch_context_claim(
                context_id, ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"], context["title"], context["label"])
        self.set_launch_presentation_claim(
            document_target=launch["presentation"],
            return_url=platform.url("/test/course?" + urllib.parse.urlencode({"context": context_id, "user": launch["user"]})))
        self.set_nrps(platform.url(f"/nrps/{context_id}/memberships"))
        self.set_ags(platform.url(f"/ags/{context_id}/lineitems"), allow_creating_lineitems=True,
                     results_service_enabled=True, scores_service_enabled=True)
        if launch["kind"] == "deep-linking":
            data = secrets.token_urlsafe(16)
            with platform.lock:
                platform.deep_link_requests[data] = {"context": context_id, "user": launch["user"],
                                                     "deployment": self._registration.get_deployment_id()}
            self.set_dl(platform.url("/deep-link/return"), title="Add On The Map", description="Choose the course's map",
                        accept_types={"ltiResourceLink"}, extra_data=data)
            # What this platform accepts (the package's defaults are broader: embed, several items).
            settings = self._deep_linking_launch_data["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]
            settings.update({"accept_presentation_document_targets": ["iframe", "window"], "accept_multiple": False})
        else:
            link = launch["link"]
            self.set_resource_link_claim(link["id"], title=link["title"])
            if link.get("custom"):
                self.set_custom_parameters_claim(link["custom"])
            self.set_launch_url(launch["target_link_uri"])
        if launch["broken"] == "expired":
            self.set_id_token_expiration(-600)

    def get_launch_data(self):
        message, state = super().get_launch_data()
        broken = self.launch["broken"]
        if broken == "wrong-aud":
            message["aud"] = "another-tool"
            message["azp"] = "another-tool"
        elif broken == "replayed-nonce":
            with self.platform.lock:
                earlier = [sent["nonce"] for sent in self.platform.sent]
            message["nonce"] = earlier[-1] if earlier else "no-earlier-launch"
        elif broken == "wrong-state":
            state = secrets.token_urlsafe(24)
        with self.platform.lock:
            self.platform.sent.append({
                "user": self.launch["user"], "sub": message.get("sub"), "context": self.launch["context"], "kind": self.launch["kind"],
                "broken": broken, "nonce": message["nonce"], "presentation": self.launch["presentation"],
                "resource_link": (message.get("https://purl.imsglobal.org/spec/lti/claim/resource_link") or {}).get("id"),
                "custom": message.get("https://purl.imsglobal.org/spec/lti/claim/custom"), "at": time.time()})
        return message, state

    def generate_launch_request(self):
        launch = super().generate_launch_request()
        if self.launch["broken"] == "bad-signature":
            header, payload, signature = launch["id_token"].split(".")
            claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            claims["https://purl.imsglobal.org/spec/lti/claim/roles"] = [ROLE + "Instructor"]
            changed = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
            launch["id_token"] = ".".join([header, changed, signature])
        return launch

    def render_launch_form(self, launch_data, **kwargs):
        response = super().render_launch_form(launch_data, **kwargs)
        response.headers["content-type"] = "text/html; charset=utf-8"
        response.headers["cache-control"] = "no-store"
        return response


class ServiceRequest(PackageRequest):
    """The package's request interface over a FastAPI request already read (its own FastAPI
    adapter, framework/fastapi/request.py, is commented out in 0.1.8)."""

    def build_metadata(self, request):
        return request


async def service_request(request):
    body = await request.body()
    try:
        payload = json.loads(body) if body else None
    except ValueError:
        payload = None
    return ServiceRequest({
        "method": request.method, "form_data": {}, "get_data": dict(request.query_params), "headers": request.headers,
        "content_type": request.headers.get("content-type"), "path": request.url.path, "json": payload})


class Memberships(NamesRoleProvisioningService):
    """The package's Names and Role Provisioning Service over the fixed class lists."""

    def __init__(self, request, conf, url, context_id):
        super().__init__(request, conf, url)
        self.context_id = context_id

    def get_context_by_id(self):
        context = CONTEXTS[self.context_id]
        return Context(id=self.context_id, label=context["label"], title=context["title"])

    def get_member_data_page(self, page=1, limit=None, role=None, since=None, **_):
        members = []
        for name, member_role in CONTEXTS[self.context_id]["members"].items():
            person = PEOPLE[name]
            if role and role not in (member_role, ROLE + member_role):
                continue
            members.append({
                "user_id": person["sub"], "roles": [ROLE + member_role], "status": "Active",
                "name": f"{person['given_name']} {person['family_name']}", "given_name": person["given_name"],
                "family_name": person["family_name"], "email": person["email"]})
        return {"content": members, "has_next": False, "next": None}

    def is_resource_link_valid(self, context_id, resource_link_id):
        platform = self.platform_config.platform
        with platform.lock:
            link = platform.resource_links.get(resource_link_id)
        return resource_link_id == default_link_id(context_id) or (link is not None and link["context"] == context_id)


class Grades(AssignmentsGradesService):
    """The package's Assignments and Grades Service over the platform's records. `scopes` are the
    ones the operation needs (the package asks any of the service's)."""

    def __init__(self, request, conf, context_id, scopes, line_item_id=None):
        platform = conf.platform
        lineitems_url = platform.url(f"/ags/{context_id}/lineitems")
        super().__init__(request, conf, lineitems_url, f"{lineitems_url}/{line_item_id}" if line_item_id else None)
        self.platform = platform
        self.context_id = context_id
        self.scopes = scopes

    @property
    def allowed_scopes(self):
        return self.scopes

    def items(self):
        return self.platform.line_items.setdefault(self.context_id, [])

    def find_lineitems(self, page=1, limit=None, line_item_id=None, resource_link_id=None, resource_id=None, tag=None, **_):
        with self.platform.lock:
            found = [item for item in self.items()
                     if (resource_link_id is None or item.get("resourceLinkId") == resource_link_id)
                     and (resource_id is None or item.get("resourceId") == resource_id) and (tag is None or item.get("tag") == tag)]
        return {"content": found, "has_next": False, "next": None}

    def find_lineitem(self, line_item_id):
        with self.platform.lock:
            for item in self.items():
                if item["id"].rsplit("/", 1)[-1] == line_item_id:
                    return item
        raise lti_errors.LineItemNotFoundException()

    def create_lineitem(self, creation_data):
        if not isinstance(creation_data, dict) or not str(creation_data.get("label", "")).strip():
            raise lti_errors.LtiServiceException("a line item needs a label", 400)
        maximum = creation_data.get("scoreMaximum")
        if isinstance(maximum, bool) or not isinstance(maximum, (int, float)) or maximum <= 0:
            raise lti_errors.LtiServiceException("a line item needs a positive scoreMaximum", 400)
        item = TLineItem(**{key: value for key, value in creation_data.items() if key in TLineItem.__annotations__})
        with self.platform.lock:
            item["id"] = f"{self.ags.lineitems_url}/{len(self.items()) + 1}"
            self.items().append(item)
        return item

    def update_lineitem(self, update_data):
        item = self.find_lineitem(update_data["id"])
        with self.platform.lock:
            item.update({key: value for key, value in update_data.items() if key != "id"})
        return item

    def delete_lineitem(self, line_item_id):
        item = self.find_lineitem(line_item_id)
        with self.platform.lock:
            self.items().remove(item)

    def update_score(self, line_item_id, score):
        item = self.find_lineitem(line_item_id)
        if self.request.content_type is None or self.request.content_type.split(";")[0].strip() != SCORE_MEDIA_TYPE:
            raise lti_errors.LtiServiceException(f"a score is {SCORE_MEDIA_TYPE}", 415)
        members = {PEOPLE[name]["sub"] for name in CONTEXTS[self.context_id]["members"]}
        problems = []
        if not isinstance(score, dict):
            raise lti_errors.LtiServiceException("a score is a JSON object", 400)
        if score.get("userId") not in members:
            problems.append("userId is nobody of the context")
        if score.get("activityProgress") not in {progress.value for progress in ActivityProgress}:
            problems.append("activityProgress")
        if score.get("gradingProgress") not in {progress.value for progress in GradeProgress}:
            problems.append("gradingProgress")
        if not isinstance(score.get("timestamp"), str):
            problems.append("timestamp")
        given, maximum = score.get("scoreGiven"), score.get("scoreMaximum")
        if given is not None and (not isinstance(given, (int, float)) or not isinstance(maximum, (int, float)) or maximum <= 0):
            problems.append("scoreGiven needs a positive scoreMaximum")
        if problems:
            raise lti_errors.LtiServiceException("invalid score: " + ", ".join(problems), 400)
        with self.platform.lock:
            self.platform.scores.append({"context": self.context_id, "lineitem": item["id"], **score})
        return UpdateScoreStatus.SUCCESS

    def get_results(self, line_item_id, page=1, limit=None, user_id=None, **_):
        item = self.find_lineitem(line_item_id)
        with self.platform.lock:
            latest = {}
            for score in self.platform.scores:
                if score["lineitem"] == item["id"] and (user_id is None or score["userId"] == user_id):
                    latest[score["userId"]] = score
        results = [{"id": f"{item['id']}/results/{user}", "scoreOf": item["id"], "userId": user,
                    "resultScore": score.get("scoreGiven"), "resultMaximum": score.get("scoreMaximum", 1)}
                   for user, score in latest.items()]
        return {"content": results, "has_next": False, "next": None}


def default_link_id(context_id):
    return f"rl-{context_id}-map"


def page(title, text, status=200):
    return HTMLResponse(
        f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>"
        f"<body><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>", status_code=status,
        headers={"cache-control": "no-store"})


def service_answer(answer, container=False):
    """A FastAPI answer from the package's service Response. A container of line items or results
    (the package's TPage) is the JSON array the specification asks for, with a `Link: rel=next`
    header for the next page."""
    if answer.code >= 400:
        return JSONResponse({"error": answer.message}, status_code=answer.code)
    if answer.result is None:
        return Response(status_code=answer.code)
    body, headers = answer.result, {}
    if container:
        body = answer.result["content"]
        if answer.result.get("next"):
            headers["link"] = generate_next_link(answer.result["next"])
    return Response(json.dumps(body), status_code=answer.code, media_type=answer.media_type, headers=headers)


def make_app(platform):
    @asynccontextmanager
    async def lifespan(_app):
        print(json.dumps({"port": platform.port, "issuer": platform.issuer, "client_id": platform.client_id,
                          "deployment_id": platform.deployment_id, **platform.urls()}), flush=True)
        yield

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)

    def conf(launch=None):
        return PlatformConf(platform=platform, launch=launch)

    @app.get("/")
    async def index():
        links = "".join(
            f"<li><a href=\"/test/launch?user={user}&amp;context={context}\">{user} → {context}</a></li>"
            for context, details in CONTEXTS.items() for user in details["members"])
        return HTMLResponse(f"<!doctype html><title>LTI test platform</title><h1>LTI test platform</h1><ul>{links}</ul>")

    @app.get("/jwks")
    async def jwks():
        return JSONResponse(conf().get_jwks())

    # The test controls.

    @app.post("/test/tool")
    async def set_tool(request: Request):
        origin = (await request.json())["origin"].rstrip("/")
        with platform.lock:
            platform.tool = origin
            platform.reset()
        return JSONResponse({"tool": origin})

    @app.get("/test/state")
    async def state():
        return JSONResponse(platform.state())

    @app.get("/test/launch")
    async def start_launch(request: Request, user: str, context: str, kind: str = "resource", link: str = "",
                           presentation: str = "window", role: str = "", broken: str = ""):
        if platform.tool is None:
            return page("No tool", "POST /test/tool first.", 409)
        if user not in PEOPLE or context not in CONTEXTS or kind not in ("resource", "deep-linking") \
                or presentation not in ("window", "iframe") or (broken and broken not in BROKEN):
            return page("Unknown launch", "user, context, kind, presentation or broken is unknown.", 400)
        role = role or CONTEXTS[context]["members"].get(user, "Learner")
        launch = {"user": user, "context": context, "kind": kind, "role": role, "presentation": presentation,
                  "broken": broken or None, "target_link_uri": platform.tool + "/lti/launch"}
        if kind == "resource":
            with platform.lock:
                made = platform.resource_links.get(link)
            if made and made["context"] == context:
                launch["link"] = {"id": link, "title": made["title"], "custom": made["custom"]}
                launch["target_link_uri"] = made["url"] or launch["target_link_uri"]
            elif link and link != default_link_id(context):
                return page("Unknown link", f"No resource link {link} in {context}.", 404)
            else:
                launch["link"] = {"id": default_link_id(context), "title": "Class map"}
        hint = secrets.token_urlsafe(18)
        with platform.lock:
            platform.launches[hint] = launch
        login = OIDCLogin(request, conf(launch))
        login.set_lti_message_hint(hint=hint)
        if kind == "deep-linking":
            login.set_deeplinking_launch_url()
        else:
            login.set_launch_url(launch["target_link_uri"])
        return login.initiate_login(PEOPLE[user]["sub"])

    @app.get("/test/course")
    async def course_page(user: str, context: str, link: str = ""):
        if user not in PEOPLE or context not in CONTEXTS:
            return page("Unknown course", "No such user or context.", 404)
        details = CONTEXTS[context]
        source = "/test/launch?" + urllib.parse.urlencode(
            {"user": user, "context": context, "presentation": "iframe", **({"link": link} if link else {})})
        return HTMLResponse(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(details['title'])}</title></head><body>"
            f"<h1 id=\"course-title\">{html.escape(details['label'])}: {html.escape(details['title'])}</h1>"
            f"<iframe id=\"tool-frame\" name=\"tool_frame\" title=\"On The Map\" src=\"{html.escape(source)}\" "
            f"allow=\"{CANVAS_IFRAME_ALLOW}\" allowfullscreen width=\"1000\" height=\"650\" "
            "style=\"border:1px solid #999\"></iframe></body></html>", headers={"cache-control": "no-store"})

    # A cookie set by 127.0.0.1 in a frame of a localhost page: a third-party cookie, stored only
    # when the browser allows them; the partitioned one (CHIPS) is stored either way.
    @app.get("/test/cookie-probe")
    async def cookie_probe(step: str = "set"):
        if step not in ("set", "echo"):
            return page("Unknown step", "set or echo", 400)
        return HTMLResponse(f"<!doctype html><title>probe</title><iframe id=\"probe\" src=\"http://127.0.0.1:{platform.port}"
                            f"/test/cookie/{step}\"></iframe>")

    @app.get("/test/cookie/set")
    async def cookie_set():
        response = HTMLResponse("<!doctype html><title>set</title><p id=\"cookies\">set</p>")
        response.headers.append("set-cookie", "probe_unpartitioned=1; Path=/; SameSite=None; Secure; Max-Age=600")
        response.headers.append("set-cookie", "probe_partitioned=1; Path=/; SameSite=None; Secure; Partitioned; Max-Age=600")
        return response

    @app.get("/test/cookie/echo")
    async def cookie_echo(request: Request):
        return HTMLResponse(f"<!doctype html><title>echo</title><p id=\"cookies\">{html.escape(request.headers.get('cookie', ''))}</p>")

    # The OpenID Connect authorization endpoint: the tool's answer to the login initiation.

    @app.get("/authorize")
    async def authorize(request: Request):
        query = request.query_params
        with platform.lock:
            launch = platform.launches.get(query.get("lti_message_hint", ""))
        problem = None
        if launch is None:
            problem = "unknown lti_message_hint"
        elif query.get("client_id") != platform.client_id:
            problem = "unknown client_id"
        elif query.get("redirect_uri") != platform.tool + "/lti/launch":
            problem = "redirect_uri is not the tool's registered launch URL"
        elif query.get("login_hint") != PEOPLE[launch["user"]]["sub"]:
            problem = "login_hint is not the user of this launch"
        elif query.get("response_type") != "id_token" or query.get("response_mode") != "form_post" \
                or "openid" not in query.get("scope", "").split():
            problem = "not an id_token form_post request with scope openid"
        elif query.get("prompt") not in (None, "none"):
            problem = "prompt must be none"
        elif not re.fullmatch(r"[A-Za-z0-9_.~-]{1,256}", query.get("state", "")) \
                or not re.fullmatch(r"[A-Za-z0-9_.~-]{1,256}", query.get("nonce", "")):
            problem = "state and nonce must be 1 to 256 URL-safe characters"
        if problem:
            platform.refuse("authorize", problem)
            return page("Launch refused by the platform", problem, 400)
        message_launch = MessageLaunch(request, conf(launch), platform, launch)
        try:
            return message_launch.lti_launch()
        except lti_errors.PreflightRequestValidationException:
            platform.refuse("authorize", "preflight")
            return page("Launch refused by the platform", "the authorization request is incomplete", 400)

    # OAuth 2.0 client credentials, the tool authenticating with a JWT signed by its key.

    @app.post("/token")
    async def token(request: Request):
        form = dict(await request.form())

        def refused(error, description, status=400):
            platform.refuse("token", description)
            return JSONResponse({"error": error, "error_description": description}, status_code=status,
                                headers={"cache-control": "no-store"})

        if form.get("client_assertion_type") != JWT_BEARER:
            return refused("invalid_request", "client_assertion_type must be jwt-bearer")
        configuration = conf()
        try:
            answer = await run_in_threadpool(configuration.get_access_token, form)
            claims = await run_in_threadpool(configuration.tool_claims, form["client_assertion"])
        except lti_errors.MissingRequiredClaim as error:
            return refused("invalid_request", str(error))
        except lti_errors.UnsupportedGrantType:
            return refused("unsupported_grant_type", "grant_type must be client_credentials")
        except (lti_errors.LtiException, jwt.PyJWTError, ValueError) as error:
            return refused("invalid_client", f"client_assertion: {error}", 401)
        audience = claims.get("aud")
        audiences = audience if isinstance(audience, list) else [audience]
        if platform.url("/token") not in audiences:
            return refused("invalid_client", f"client_assertion aud is {audience}, not the token URL", 401)
        if claims.get("iss") != platform.client_id or claims.get("sub") != platform.client_id:
            return refused("invalid_client", "client_assertion iss and sub must be the client id", 401)
        if "exp" not in claims or not claims.get("jti"):
            return refused("invalid_client", "client_assertion needs exp and jti", 401)
        with platform.lock:
            replayed = claims["jti"] in platform.assertion_ids
            platform.assertion_ids.add(claims["jti"])
        if replayed:
            return refused("invalid_client", "client_assertion jti used before", 401)
        if not answer["scope"]:
            return refused("invalid_scope", f"none of the scopes {form.get('scope')!r} is granted")
        with platform.lock:
            platform.tokens.append({"scopes": answer["scope"].split(" "), "at": time.time()})
        return JSONResponse(answer, headers={"cache-control": "no-store"})

    def known(context_id):
        if context_id not in CONTEXTS:
            raise HTTPException(404, "unknown context")

    # Names and Role Provisioning.

    @app.get("/nrps/{context_id}/memberships")
    async def memberships(request: Request, context_id: str):
        known(context_id)
        service = Memberships(await service_request(request), conf(), platform.url(f"/nrps/{context_id}/memberships"), context_id)
        answer = await call_service(service, service.handle_get_members)
        with platform.lock:
            platform.nrps_calls.append({"context": context_id, "status": answer.status_code, "at": time.time()})
        return answer

    # Assignments and Grades.

    @app.api_route("/ags/{context_id}/lineitems", methods=["GET", "POST"])
    async def line_items(request: Request, context_id: str):
        known(context_id)
        if request.method == "GET":
            service = Grades(await service_request(request), conf(), context_id, LINE_ITEM_READERS)
            return await call_service(service, service.handle_get_lineitems, container=True)
        service = Grades(await service_request(request), conf(), context_id, [AGS_SCOPE + "lineitem"])
        return await call_service(service, service.handle_create_lineitem)

    @app.api_route("/ags/{context_id}/lineitems/{item_id}", methods=["GET", "PUT", "DELETE"])
    async def line_item(request: Request, context_id: str, item_id: str):
        known(context_id)
        service = Grades(await service_request(request), conf(), context_id,
                         LINE_ITEM_READERS if request.method == "GET" else [AGS_SCOPE + "lineitem"], item_id)
        handler = {"GET": service.handle_get_lineitem, "PUT": service.handle_update_lineitem,
                   "DELETE": service.handle_delete_lineitem}[request.method]
        return await call_service(service, handler, line_item_id=item_id)

    @app.post("/ags/{context_id}/lineitems/{item_id}/scores")
    async def scores(request: Request, context_id: str, item_id: str):
        known(context_id)
        service = Grades(await service_request(request), conf(), context_id, [AGS_SCOPE + "score"], item_id)
        return await call_service(service, service.handle_update_score, line_item_id=item_id)

    @app.get("/ags/{context_id}/lineitems/{item_id}/results")
    async def results(request: Request, context_id: str, item_id: str):
        known(context_id)
        service = Grades(await service_request(request), conf(), context_id, [AGS_SCOPE + "result.readonly"], item_id)
        return await call_service(service, service.handle_get_results, container=True, line_item_id=item_id)

    async def call_service(service, handler, container=False, **kwargs):
        """The package's handler, a bad bearer token (which its check raises) a 401."""
        try:
            answer = await run_in_threadpool(service.handle_resp, handler, **kwargs)
        except (jwt.PyJWTError, lti_errors.LtiException, AssertionError) as error:
            platform.refuse(service.__class__.__name__, f"bearer token: {error}", path=service.request.path)
            return JSONResponse({"error": "invalid bearer token"}, status_code=401)
        if answer.code >= 400:
            platform.refuse(service.__class__.__name__, answer.message, path=service.request.path, status=answer.code)
        return service_answer(answer, container)

    # Deep linking: the tool's answer, an auto-posted form with `JWT`.

    @app.post("/deep-link/return")
    async def deep_link_return(request: Request):
        form = dict(await request.form())
        configuration = conf()

        def refused(reason):
            platform.refuse("deep-link", reason)
            return page("Deep linking refused by the platform", reason, 400)

        if not form.get("JWT"):
            return refused("no JWT in the form")
        try:
            claims = await run_in_threadpool(configuration.tool_claims, form["JWT"])
            items = await run_in_threadpool(configuration.validate_deeplinking_resp, form)
        except (lti_errors.LtiException, lti_errors.LtiDeepLinkingResponseException, jwt.PyJWTError, ValueError, KeyError) as error:
            return refused(f"{type(error).__name__}: {error}")
        audience = claims.get("aud")
        with platform.lock:
            request_made = platform.deep_link_requests.get(claims.get("https://purl.imsglobal.org/spec/lti-dl/claim/data"))
            nonce_used = claims.get("nonce") in platform.response_nonces
            platform.response_nonces.add(claims.get("nonce"))
        if claims.get("iss") != platform.client_id:
            return refused("iss is not the client id")
        if platform.issuer not in (audience if isinstance(audience, list) else [audience]):
            return refused("aud is not the platform's issuer")
        if not claims.get("nonce") or nonce_used:
            return refused("no nonce, or one used before")
        if claims.get("https://purl.imsglobal.org/spec/lti/claim/version") != "1.3.0":
            return refused("version is not 1.3.0")
        if request_made is None:
            return refused("data is not the data of a deep-linking request")
        if claims.get("https://purl.imsglobal.org/spec/lti/claim/deployment_id") != request_made["deployment"]:
            return refused("deployment_id is not the request's")
        if len(items) > 1:
            return refused("several items, and accept_multiple is false")
        added = []
        with platform.lock:
            for item in items:
                link_id = f"rl-dl-{len(platform.resource_links) + 1}"
                custom = item.get("custom") or {}
                platform.resource_links[link_id] = {"context": request_made["context"], "title": item.get("title") or "On The Map",
                                                    "url": item.get("url"), "custom": custom}
                platform.deep_link_items.append({"context": request_made["context"], "resource_link": link_id, **item})
                added.append(item.get("title") or link_id)
            del platform.deep_link_requests[claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"]]
        message = claims.get("https://purl.imsglobal.org/spec/lti-dl/claim/msg")
        return page("Added to the course" if added else "Nothing added",
                    (", ".join(added) if added else "The tool sent no item.") + (f" ({message})" if message else ""))

    return app


def listen(port_hint=0):
    """Sockets on 127.0.0.1 and, where there is one, ::1, on one free port: `localhost` reaches it
    whichever address it resolves to."""
    for _ in range(20):
        ipv4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        ipv4.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ipv4.bind(("127.0.0.1", port_hint))
        port = ipv4.getsockname()[1]
        sockets = [ipv4]
        ipv6 = None
        try:
            ipv6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            ipv6.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            ipv6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            ipv6.bind(("::1", port))
            sockets.append(ipv6)
        except OSError as error:
            if ipv6 is not None:
                ipv6.close()
            if error.errno == errno.EADDRINUSE and not port_hint:  # taken on ::1: another port
                ipv4.close()
                continue
            # No IPv6 loopback here: localhost is 127.0.0.1 alone.
        for sock in sockets:
            sock.listen(128)
        return port, sockets
    raise SystemExit("no free port on both loopback addresses")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client-id", default="onthemap-tool")
    parser.add_argument("--deployment-id", default="deployment-1")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    port, sockets = listen(arguments.port)
    platform = Platform(port, arguments.client_id, arguments.deployment_id)
    server = uvicorn.Server(uvicorn.Config(make_app(platform), log_level="warning", access_log=False))
    try:
        server.run(sockets=sockets)
    except KeyboardInterrupt:
        sys.exit(0)
