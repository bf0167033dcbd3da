from django.urls import path

from . import views

app_name = "sanguo"

urlpatterns = [
    path("sanguo/", views.lobby, name="lobby"),
    path("sanguo/new/", views.create, name="create"),
    path("sanguo/<int:game_id>/", views.game_page, name="game"),
    path("sanguo/<int:game_id>/act/", views.act, name="act"),
    path("sanguo/<int:game_id>/chat/", views.chat_post, name="chat"),
    path("sanguo/<int:game_id>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("sanguo/<int:game_id>/starter.json", views.starter, name="starter"),
    path("sanguo/<int:game_id>/record.json", views.record, name="record"),
    path("sanguo/<int:game_id>/replay/", views.replay, name="replay"),
    path("sanguo/import/", views.import_record, name="import"),
]
