"""The reference for On The Map's PostgreSQL read path (scripts/bench/bench-postgres.sh): FastAPI with asyncpg
and orjson answering GET /v1/StudentLocation?limit=100&order=-updatedAt,objectId with the same query
the server runs (the partial index's `hidden_at IS NULL` included) and the same JSON: the ten fields of
each record, timestamps as ISO-8601 with milliseconds. Run with uvicorn, DATABASE_URL set."""
import datetime
import os

import asyncpg
import orjson
from fastapi import FastAPI, Response

QUERY = """
SELECT object_id, unique_key, first_name, last_name, map_string, media_url, latitude, longitude, created_at, updated_at
FROM student_locations WHERE hidden_at IS NULL ORDER BY updated_at DESC, object_id LIMIT $1 OFFSET $2
"""

app = FastAPI()
pool = None


def iso(millis):
    moment = datetime.datetime.fromtimestamp(millis / 1000, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"


@app.on_event("startup")
async def connect():
    global pool
    pool = await asyncpg.create_pool(os.environ["DATABASE_URL"], min_size=4, max_size=8)


@app.get("/v1/StudentLocation")
async def locations(limit: int = 100, skip: int = 0, order: str = "-updatedAt"):
    async with pool.acquire() as connection:
        rows = await connection.fetch(QUERY, min(limit, 1000), skip)
    results = [
        {
            "createdAt": iso(row["created_at"]), "firstName": row["first_name"], "lastName": row["last_name"],
            "latitude": row["latitude"], "longitude": row["longitude"], "mapString": row["map_string"],
            "mediaURL": row["media_url"], "objectId": row["object_id"], "uniqueKey": row["unique_key"],
            "updatedAt": iso(row["updated_at"]),
        }
        for row in rows
    ]
    return Response(orjson.dumps({"results": results}), media_type="application/json")
