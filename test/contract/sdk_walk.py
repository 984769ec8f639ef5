"""The SDK walk through Polar's Python client (polar-sdk 0.23.1), run by sdk-walk.test.ts.

Reads a JSON context on stdin (the API's URL, an organization's token, the ids an earlier walk
made in it, an OAuth2 app's credentials and tokens, a signed-in user's cookie) and calls the
operations the TypeScript walk calls, with data of its own where it writes, each answer parsed into
the client's pydantic models. Prints one JSON line: every step's outcome, named by the 0.34.17
TypeScript function of the same operation.
"""

import base64
import datetime
import hashlib
import json
import sys
import time
import uuid

import httpx
from polar_sdk import Polar, models

ctx = json.load(sys.stdin)
v = dict(ctx["vars"])
tag = uuid.uuid4().hex[:8]
url = ctx["url"]
oauth = ctx["oauth"]

merchant = Polar(access_token=ctx["token"], server_url=url)
anon = Polar(server_url=url)


def as_user(request: httpx.Request) -> None:
    """The authorize call as the signed-in user's browser sends it (the client sends no query)."""
    request.url = request.url.copy_with(query=oauth["authorize_query"].encode())
    request.headers["cookie"] = oauth["cookie"]
    request.headers["origin"] = url


authorizing = Polar(server_url=url, client=httpx.Client(event_hooks={"request": [as_user]}))
user = Polar(server_url=url, client=httpx.Client(headers={"cookie": oauth["cookie"], "origin": url}))


def session(name="portal_token"):
    return {"customer_session": v[name]}


def first(page, attr="id"):
    return getattr(page.result.items[0], attr)


def granted(page):
    keys = [k for k in page.result.items if k.status == "granted"]
    return {"key_id": keys[0].id, "key": keys[0].key} if keys else {}


FILE = b"%PDF-1.4 python walk"
FILE_SHA = base64.b64encode(hashlib.sha256(FILE).digest()).decode()


def upload_and_complete():
    """PUTs the file's one part to its presigned URL, then tells the API it is uploaded."""
    part = v["upload"].parts[0]
    res = httpx.put(part.url, headers=part.headers, content=FILE)
    res.raise_for_status()
    parts = [{"number": 1, "checksum_etag": res.headers["etag"], "checksum_sha256_base64": FILE_SHA}]
    return merchant.files.uploaded(id=v["file_id"], file_upload_completed={"id": v["upload"].id, "path": v["upload"].path, "parts": parts})


def step(fn, call, keep=None, until=None, fails=None):
    """`fn` (the 0.34.17 function) by `call`; `keep` picks values from the answer, `until` is waited
    for (up to 30 s, calling again), `fails` is the client's error class the call must raise."""
    return {"fn": fn, "call": call, "keep": keep, "until": until, "fails": fails}


confirm = {"customer_billing_address": {"country": "FR"}, "confirmation_token_id": "tok_sandbox_success"}
today = datetime.date.today()

STEPS = [
    step("organizationsGet", lambda: merchant.organizations.get(id=v["organizationId"])),
    step("organizationsList", lambda: merchant.organizations.list()),
    step("organizationsUpdate", lambda: merchant.organizations.update(id=v["organizationId"], organization_update={"name": f"Py walk {tag}"})),
    step("metricsLimits", lambda: merchant.metrics.limits()),
    step("metricsGet", lambda: merchant.metrics.get(start_date=today - datetime.timedelta(days=30), end_date=today, interval="week")),
    step("webhooksCreateWebhookEndpoint", lambda: merchant.webhooks.create_webhook_endpoint(request={"url": f"{ctx['receiver_url']}/py-{tag}", "format": "raw", "events": ["product.created"]}), keep=lambda r: {"endpoint_id": r.id}),
    step("webhooksGetWebhookEndpoint", lambda: merchant.webhooks.get_webhook_endpoint(id=v["endpoint_id"])),
    step("webhooksListWebhookEndpoints", lambda: merchant.webhooks.list_webhook_endpoints()),
    step("webhooksUpdateWebhookEndpoint", lambda: merchant.webhooks.update_webhook_endpoint(id=v["endpoint_id"], webhook_endpoint_update={"events": ["product.created", "product.updated"]})),
    step("webhooksResetWebhookEndpointSecret", lambda: merchant.webhooks.reset_webhook_endpoint_secret(id=v["endpoint_id"])),
    step(
        "filesCreate",
        lambda: merchant.files.create(request={"service": "downloadable", "name": "py.pdf", "mime_type": "application/pdf", "size": len(FILE), "checksum_sha256_base64": FILE_SHA, "upload": {"parts": [{"number": 1, "chunk_start": 0, "chunk_end": len(FILE), "checksum_sha256_base64": FILE_SHA}]}}),
        keep=lambda r: {"file_id": r.id, "upload": r.upload},
    ),
    step("filesUploaded", upload_and_complete),
    step("filesList", lambda: merchant.files.list()),
    step("filesUpdate", lambda: merchant.files.update(id=v["file_id"], file_patch={"name": "Py.pdf"})),
    step("benefitsCreate", lambda: merchant.benefits.create(request={"type": "custom", "description": "Py support", "properties": {"note": "Mail us"}}), keep=lambda r: {"benefit_id": r.id}),
    step("benefitsGet", lambda: merchant.benefits.get(id=v["licenseBenefitId"])),
    step("benefitsList", lambda: merchant.benefits.list()),
    step("benefitsUpdate", lambda: merchant.benefits.update(id=v["benefit_id"], request_body={"type": "custom", "description": "Py support, 24/7"})),
    step("benefitsGrants", lambda: merchant.benefits.grants(id=v["customBenefitId"])),
    step("benefitsCreate", lambda: merchant.benefits.create(request={"type": "custom", "description": "Short-lived", "properties": {}}), keep=lambda r: {"spare_benefit_id": r.id}),
    step("benefitsDelete", lambda: merchant.benefits.delete(id=v["spare_benefit_id"])),
    step("productsCreate", lambda: merchant.products.create(request={"name": "Py monthly", "recurring_interval": "month", "prices": [{"amount_type": "fixed", "price_amount": 1200, "price_currency": "usd"}]}), keep=lambda r: {"product_id": r.id}),
    step("productsGet", lambda: merchant.products.get(id=v["productId"])),
    step("productsList", lambda: merchant.products.list()),
    step("productsUpdate", lambda: merchant.products.update(id=v["product_id"], product_update={"description": "Walked in Python"})),
    step("productsUpdateBenefits", lambda: merchant.products.update_benefits(id=v["product_id"], product_benefits_update={"benefits": [v["benefit_id"]]})),
    step("customFieldsCreate", lambda: merchant.custom_fields.create(request={"type": "text", "slug": f"py-{tag}", "name": "Py", "properties": {"form_label": "Py"}}), keep=lambda r: {"custom_field_id": r.id}),
    step("customFieldsGet", lambda: merchant.custom_fields.get(id=v["custom_field_id"])),
    step("customFieldsList", lambda: merchant.custom_fields.list()),
    step("customFieldsUpdate", lambda: merchant.custom_fields.update(id=v["custom_field_id"], custom_field_update={"type": "text", "name": "Py field"})),
    step("discountsCreate", lambda: merchant.discounts.create(request={"name": "Py", "type": "percentage", "basis_points": 500, "duration": "once", "code": f"PY{tag}"}), keep=lambda r: {"discount_id": r.id}),
    step("discountsGet", lambda: merchant.discounts.get(id=v["discount_id"])),
    step("discountsList", lambda: merchant.discounts.list()),
    step("discountsUpdate", lambda: merchant.discounts.update(id=v["discount_id"], discount_update={"name": "Py five"})),
    step("checkoutLinksCreate", lambda: merchant.checkout_links.create(request={"payment_processor": "stripe", "product_id": v["oneTimeId"]}), keep=lambda r: {"checkout_link_id": r.id}),
    step("checkoutLinksGet", lambda: merchant.checkout_links.get(id=v["checkout_link_id"])),
    step("checkoutLinksList", lambda: merchant.checkout_links.list()),
    step("checkoutLinksUpdate", lambda: merchant.checkout_links.update(id=v["checkout_link_id"], checkout_link_update={"label": "Py link"})),
    step("customersCreate", lambda: merchant.customers.create(request={"email": f"py-{tag}@example.com", "name": "Py"}), keep=lambda r: {"gone_id": r.id}),
    step("customersDelete", lambda: merchant.customers.delete(id=v["gone_id"])),
    step("customersCreate", lambda: merchant.customers.create(request={"email": f"py-ext-{tag}@example.com", "external_id": f"py-{tag}"})),
    step("customersDeleteExternal", lambda: merchant.customers.delete_external(external_id=f"py-{tag}")),
    step("customersGet", lambda: merchant.customers.get(id=v["customerId"])),
    step("customersList", lambda: merchant.customers.list()),
    step("customersUpdate", lambda: merchant.customers.update(id=v["customerId"], customer_update={"name": "Walker Py"})),
    step("customersGetExternal", lambda: merchant.customers.get_external(external_id=v["externalId"])),
    step("customersUpdateExternal", lambda: merchant.customers.update_external(external_id=v["externalId"], customer_update_external_id={"metadata": {"walk": "py"}})),
    step("customersGetState", lambda: merchant.customers.get_state(id=v["customerId"])),
    step("customersGetStateExternal", lambda: merchant.customers.get_state_external(external_id=v["externalId"])),
    # A new subscription for the walk's buyer (their first was revoked), confirmed on the sandbox.
    step("checkoutsCreate", lambda: merchant.checkouts.create(request={"products": [v["productId"]], "customer_id": v["customerId"]}), keep=lambda r: {"checkout_id": r.id, "client_secret": r.client_secret}),
    step("checkoutsGet", lambda: merchant.checkouts.get(id=v["checkout_id"])),
    step("checkoutsList", lambda: merchant.checkouts.list()),
    step("checkoutsUpdate", lambda: merchant.checkouts.update(id=v["checkout_id"], checkout_update={"metadata": {"walk": "py"}})),
    step("checkoutsClientGet", lambda: anon.checkouts.client_get(client_secret=v["client_secret"])),
    step("checkoutsClientUpdate", lambda: anon.checkouts.client_update(client_secret=v["client_secret"], checkout_update_public={"customer_name": "Walker Py"})),
    step("checkoutsClientConfirm", lambda: anon.checkouts.client_confirm(client_secret=v["client_secret"], checkout_confirm_stripe=confirm)),
    step("subscriptionsList", lambda: merchant.subscriptions.list(customer_id=v["customerId"], active=True), keep=lambda r: {"subscription_id": first(r)}),
    step("subscriptionsGet", lambda: merchant.subscriptions.get(id=v["subscription_id"])),
    step("subscriptionsUpdate", lambda: merchant.subscriptions.update(id=v["subscription_id"], subscription_update={"cancel_at_period_end": True})),
    step("subscriptionsUpdate", lambda: merchant.subscriptions.update(id=v["subscription_id"], subscription_update={"cancel_at_period_end": False})),
    step("subscriptionsExport", lambda: merchant.subscriptions.export(organization_id=v["organizationId"])),
    step("ordersList", lambda: merchant.orders.list(checkout_id=v["checkout_id"]), keep=lambda r: {"order_id": first(r)}),
    step("ordersGet", lambda: merchant.orders.get(id=v["orderId"])),
    step("ordersUpdate", lambda: merchant.orders.update(id=v["order_id"], order_update={"billing_name": "Walker Py Inc.", "billing_address": {"country": "FR", "city": "Nice"}})),
    step("ordersGenerateInvoice", lambda: merchant.orders.generate_invoice(id=v["order_id"])),
    step("ordersInvoice", lambda: merchant.orders.invoice(id=v["orderId"])),
    step("paymentsList", lambda: merchant.payments.list()),
    step("paymentsGet", lambda: merchant.payments.get(id=v["paymentId"])),
    step("refundsCreate", lambda: merchant.refunds.create(request={"order_id": v["order_id"], "reason": "customer_request", "amount": 50})),
    step("refundsList", lambda: merchant.refunds.list()),
    # The key the new subscription granted (the walk's first one was revoked with its subscription).
    step("licenseKeysList", lambda: merchant.license_keys.list(), keep=lambda r: granted(r), until=lambda r: "key_id" in granted(r)),
    step("licenseKeysGet", lambda: merchant.license_keys.get(id=v["key_id"])),
    step("licenseKeysUpdate", lambda: merchant.license_keys.update(id=v["key_id"], license_key_update={"limit_usage": 60})),
    step("licenseKeysValidate", lambda: merchant.license_keys.validate(request={"key": v["key"], "organization_id": v["organizationId"]})),
    step("licenseKeysActivate", lambda: merchant.license_keys.activate(request={"key": v["key"], "organization_id": v["organizationId"], "label": "py"}), keep=lambda r: {"activation_id": r.id}),
    step("licenseKeysGetActivation", lambda: merchant.license_keys.get_activation(id=v["key_id"], activation_id=v["activation_id"])),
    step("licenseKeysDeactivate", lambda: merchant.license_keys.deactivate(request={"key": v["key"], "organization_id": v["organizationId"], "activation_id": v["activation_id"]})),
    step("metersCreate", lambda: merchant.meters.create(request={"name": "Py calls", "filter": {"conjunction": "and", "clauses": [{"property": "name", "operator": "eq", "value": "py_call"}]}, "aggregation": {"func": "count"}}), keep=lambda r: {"meter_id": r.id}),
    step("metersUpdate", lambda: merchant.meters.update(id=v["meter_id"], meter_update={"name": "Py API calls"})),
    step("metersGet", lambda: merchant.meters.get(id=v["meterId"])),
    step("metersList", lambda: merchant.meters.list()),
    step("metersQuantities", lambda: merchant.meters.quantities(id=v["meterId"], start_timestamp=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1), end_timestamp=datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1), interval="day")),
    step("eventsIngest", lambda: merchant.events.ingest(request={"events": [{"name": "py_call", "customer_id": v["customerId"]}]})),
    step("eventsList", lambda: merchant.events.list()),
    step("eventsGet", lambda: merchant.events.get(id=v["eventId"])),
    step("eventsListNames", lambda: merchant.events.list_names()),
    step("customerMetersList", lambda: merchant.customer_meters.list()),
    step("customerMetersGet", lambda: merchant.customer_meters.get(id=v["customerMeterId"])),
    # The buyer's portal.
    step("customerSessionsCreate", lambda: merchant.customer_sessions.create(request={"customer_id": v["customerId"]}), keep=lambda r: {"portal_token": r.token}),
    step("customerPortalOrganizationsGet", lambda: anon.customer_portal.organizations.get(slug=v["organizationSlug"])),
    step("customerPortalCustomersGet", lambda: anon.customer_portal.customers.get(security=session())),
    step("customerPortalCustomersUpdate", lambda: anon.customer_portal.customers.update(security=session(), request={"billing_name": "Walker Py SARL"})),
    step("customerPortalCustomersListPaymentMethods", lambda: anon.customer_portal.customers.list_payment_methods(security=session())),
    step(
        "customerPortalCustomersAddPaymentMethod",
        lambda: anon.customer_portal.customers.add_payment_method(security=session(), request={"confirmation_token_id": "tok_sandbox_success", "set_default": False, "return_url": "https://example.com/back"}),
        keep=lambda r: {"payment_method_id": r.id},
    ),
    step("customerPortalCustomersDeletePaymentMethod", lambda: anon.customer_portal.customers.delete_payment_method(security=session(), id=v["payment_method_id"])),
    step("customerPortalOrdersList", lambda: anon.customer_portal.orders.list(security=session())),
    step("customerPortalOrdersGet", lambda: anon.customer_portal.orders.get(security=session(), id=v["oneTimeOrderId"])),
    step("customerPortalOrdersGetPaymentStatus", lambda: anon.customer_portal.orders.get_payment_status(security=session(), id=v["oneTimeOrderId"])),
    step("customerPortalOrdersInvoice", lambda: anon.customer_portal.orders.invoice(security=session(), id=v["oneTimeOrderId"])),
    step("customerPortalOrdersConfirmRetryPayment", lambda: anon.customer_portal.orders.confirm_retry_payment(security=session(), id=v["oneTimeOrderId"], customer_order_confirm_payment={"confirmation_token_id": "tok_sandbox_success"}), fails=models.OrderNotEligibleForRetry),
    # The Python purchase's one-time twin: its buyer gives billing details, then asks for the invoice.
    step("checkoutsCreate", lambda: merchant.checkouts.create(request={"products": [v["oneTimeId"]], "customer_id": v["customerId"]}), keep=lambda r: {"one_time_checkout_id": r.id, "one_time_secret": r.client_secret}),
    step("checkoutsClientConfirm", lambda: anon.checkouts.client_confirm(client_secret=v["one_time_secret"], checkout_confirm_stripe=confirm)),
    step("ordersList", lambda: merchant.orders.list(checkout_id=v["one_time_checkout_id"]), keep=lambda r: {"one_time_order_id": first(r)}),
    step("customerPortalOrdersUpdate", lambda: anon.customer_portal.orders.update(security=session(), id=v["one_time_order_id"], customer_order_update={"billing_name": "Walker Py SARL", "billing_address": {"country": "FR", "city": "Lyon"}})),
    step("customerPortalOrdersGenerateInvoice", lambda: anon.customer_portal.orders.generate_invoice(security=session(), id=v["one_time_order_id"])),
    step("customerPortalSubscriptionsList", lambda: anon.customer_portal.subscriptions.list(security=session())),
    step("customerPortalSubscriptionsGet", lambda: anon.customer_portal.subscriptions.get(security=session(), id=v["subscription_id"])),
    step("customerPortalSubscriptionsUpdate", lambda: anon.customer_portal.subscriptions.update(security=session(), id=v["subscription_id"], customer_subscription_update={"cancel_at_period_end": False})),
    step("customerPortalBenefitGrantsList", lambda: anon.customer_portal.benefit_grants.list(security=session(), benefit_id=v["customBenefitId"]), keep=lambda r: {"grant_id": first(r)}),
    step("customerPortalBenefitGrantsGet", lambda: anon.customer_portal.benefit_grants.get(security=session(), id=v["grant_id"])),
    step("customerPortalBenefitGrantsUpdate", lambda: anon.customer_portal.benefit_grants.update(security=session(), id=v["grant_id"], customer_benefit_grant_update={"benefit_type": "custom"})),
    step("customerPortalCustomerMetersList", lambda: anon.customer_portal.customer_meters.list(security=session())),
    step("customerPortalCustomerMetersGet", lambda: anon.customer_portal.customer_meters.get(security=session(), id=v["portalMeterId"])),
    step("customerPortalDownloadablesList", lambda: anon.customer_portal.downloadables.list(security=session()), until=lambda r: len(r.result.items) > 0),
    step("customerPortalLicenseKeysList", lambda: anon.customer_portal.license_keys.list(security=session())),
    step("customerPortalLicenseKeysGet", lambda: anon.customer_portal.license_keys.get(security=session(), id=v["key_id"])),
    step("customerPortalLicenseKeysValidate", lambda: anon.customer_portal.license_keys.validate(request={"key": v["key"], "organization_id": v["organizationId"]})),
    step("customerPortalLicenseKeysActivate", lambda: anon.customer_portal.license_keys.activate(request={"key": v["key"], "organization_id": v["organizationId"], "label": "py-desktop"}), keep=lambda r: {"portal_activation_id": r.id}),
    step("customerPortalLicenseKeysDeactivate", lambda: anon.customer_portal.license_keys.deactivate(request={"key": v["key"], "organization_id": v["organizationId"], "activation_id": v["portal_activation_id"]})),
    # The endpoint was sent the product created above.
    step("webhooksListWebhookDeliveries", lambda: merchant.webhooks.list_webhook_deliveries(endpoint_id=v["endpoint_id"]), keep=lambda r: {"event_id": r.result.items[0].webhook_event.id}, until=lambda r: len(r.result.items) > 0),
    step("webhooksRedeliverWebhookEvent", lambda: merchant.webhooks.redeliver_webhook_event(id=v["event_id"])),
    # The signed-in user: an organization of their own; what the OAuth2 app asks of them, its tokens.
    step("organizationsCreate", lambda: user.organizations.create(request={"name": "Py Two", "slug": f"py-two-{tag}"})),
    step("oauth2Authorize", lambda: authorizing.oauth2.authorize()),
    step(
        "oauth2Token",
        lambda: anon.oauth2.token(request={"grant_type": "refresh_token", "refresh_token": oauth["refresh_token"], "client_id": oauth["client_id"], "client_secret": oauth["client_secret"]}),
        keep=lambda r: {"access_token": r.access_token},
    ),
    step("oauth2Introspect", lambda: anon.oauth2.introspect(request={"token": v["access_token"], "client_id": oauth["client_id"], "client_secret": oauth["client_secret"]})),
    step("oauth2Userinfo", lambda: Polar(access_token=v["access_token"], server_url=url).oauth2.userinfo()),
    step("oauth2Revoke", lambda: anon.oauth2.revoke(request={"token": v["access_token"], "client_id": oauth["client_id"], "client_secret": oauth["client_secret"]})),
    # A second buyer, signed up by their purchase, cancels (revokes) in the portal.
    step("checkoutsCreate", lambda: merchant.checkouts.create(request={"products": [v["productId"]]}), keep=lambda r: {"second_checkout_id": r.id, "second_secret": r.client_secret}),
    step("checkoutsClientConfirm", lambda: anon.checkouts.client_confirm(client_secret=v["second_secret"], checkout_confirm_stripe=dict(confirm, customer_email=f"py-second-{tag}@example.com"))),
    step("checkoutsGet", lambda: merchant.checkouts.get(id=v["second_checkout_id"]), keep=lambda r: {"second_customer_id": r.customer_id}),
    step("customerSessionsCreate", lambda: merchant.customer_sessions.create(request={"customer_id": v["second_customer_id"]}), keep=lambda r: {"second_session": r.token}),
    step("customerPortalSubscriptionsList", lambda: anon.customer_portal.subscriptions.list(security=session("second_session")), keep=lambda r: {"second_subscription_id": first(r)}),
    step("customerPortalSubscriptionsCancel", lambda: anon.customer_portal.subscriptions.cancel(security=session("second_session"), id=v["second_subscription_id"])),
    # Writes undone.
    step("customFieldsDelete", lambda: merchant.custom_fields.delete(id=v["custom_field_id"])),
    step("discountsDelete", lambda: merchant.discounts.delete(id=v["discount_id"])),
    step("checkoutLinksDelete", lambda: merchant.checkout_links.delete(id=v["checkout_link_id"])),
    step("webhooksDeleteWebhookEndpoint", lambda: merchant.webhooks.delete_webhook_endpoint(id=v["endpoint_id"])),
    step("filesDelete", lambda: merchant.files.delete(id=v["file_id"])),
    step("subscriptionsRevoke", lambda: merchant.subscriptions.revoke(id=v["subscription_id"])),
]


def describe(err: Exception) -> str:
    cause = err.__cause__
    text = f"{type(err).__name__}: {err}"
    return f"{text}\n  {cause}" if cause is not None else text


def run(s):
    if s["fails"] is not None:
        try:
            s["call"]()
        except s["fails"]:
            return
        raise AssertionError(f"{s['fails'].__name__} was expected")
    result = s["call"]()
    deadline = time.monotonic() + 30
    while s["until"] is not None and not s["until"](result) and time.monotonic() < deadline:
        time.sleep(0.25)
        result = s["call"]()
    if s["until"] is not None and not s["until"](result):
        raise AssertionError("what the step waits for did not happen in 30 s")
    if s["keep"] is not None:
        v.update(s["keep"](result))


outcomes = []
for s in STEPS:
    fn = s["fn"]
    try:
        run(s)
        outcomes.append({"fn": fn, "ok": True})
    except KeyError as err:
        outcomes.append({"fn": fn, "ok": False, "detail": f"{err} was not kept: the step that keeps it failed"})
    except Exception as err:  # noqa: BLE001 - every failure is reported, and the walk goes on
        outcomes.append({"fn": fn, "ok": False, "detail": describe(err)})

print(json.dumps(outcomes))
