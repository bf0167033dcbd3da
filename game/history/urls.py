from django.urls import path

from . import views, replay_views

app_name = "history"

urlpatterns = [
    path("history/", views.history, name="list"),
    path("users/<username:username>/history/", views.user_history, name="user"),
    path("match/<int:match_id>/summary/", views.summary, name="summary"),
    path("match/<int:match_id>/replay/", replay_views.replay, name="replay"),
    path("match/<int:match_id>/record.json", replay_views.record_json, name="record"),
    path("records/import/", replay_views.import_record, name="import"),
]
