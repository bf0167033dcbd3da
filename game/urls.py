from django.urls import path

from . import games, views

app_name = "game"

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="match"),
    path("match/<int:match_id>/move/", views.move, name="move"),
    path("match/<int:match_id>/resign/", views.resign, name="resign"),
    path("match/<int:match_id>/rematch/", views.rematch_answer, name="rematch"),
    path("match/<int:match_id>/abort/", views.abort, name="abort"),
    path("match/<int:match_id>/claim/", views.claim, name="claim"),
    path("match/<int:match_id>/chat/", views.chat_post, name="chat"),
    path("match/<int:match_id>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("games/<slug:name>/how-to-play/", views.how_to_play, name="how_to_play"),
    path("games/<slug:name>/tutorial/", views.tutorial, name="tutorial"),
    path("match/<int:match_id>/tutorial/leave/", views.tutorial_leave, name="tutorial_leave"),
]
# Each game's own pages for the players of a match (Aquawar's deduction aid), one route per path
# whatever the game: the view asks the match's game for its page, a 404 where it has none.
urlpatterns += [
    path(f"match/<int:match_id>/{suffix}", views.game_page(suffix), name=name)
    for suffix, name in {suffix: name for game in games.every() for suffix, name, _view in game.web.player_views}.items()
]
